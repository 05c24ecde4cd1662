// Locates ../shared (model2vec parity fixtures, eval sets). Tests that need it skip when it is absent.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const sharedDir = process.env.SIMGREP_SHARED_DIR ?? path.resolve(repoRoot, '..', 'shared');
export const model2vecFixtures = path.join(sharedDir, 'fixtures', 'model2vec');
export const hasShared = existsSync(model2vecFixtures);
export { repoRoot };
