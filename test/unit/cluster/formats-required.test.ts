// mend38a: incompatibility() took `formats?` on both sides and the watch's `me` had none, so a caller
// that dropped it compiled, and compared undefined with undefined (or with every worker's formats).
// They are required: the fixture's callers that drop them must fail to compile.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { expect, it } from 'vitest';

it('incompatibility() and the watch require formats on both sides (the compiler refuses a caller without)', () => {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const config = ts.getParsedCommandLineOfConfigFile(path.join(here, '../../../tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  const program = ts.createProgram([path.join(here, 'formats-required.typecheck.ts')], { ...config!.options, noEmit: true, skipLibCheck: true, noUnusedLocals: false });
  const shown = ts.getPreEmitDiagnostics(program).map((d) => `${d.file ? path.basename(d.file.fileName) : ''}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`);
  expect(shown).toEqual([]);
}, 120_000);
