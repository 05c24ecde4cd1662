// A path's ranking facts and text are worked out once per directory: they must equal what the whole
// path gives (pathFactsOfParts, pathTerms) for every shape of path, test and side-code names in the
// directory or in the file name, separators of both kinds, and dot components.
import { describe, expect, it } from 'vitest';
import { pathFacts, pathFactsOfParts } from '../../../src/rank/path-signals.js';
import { pathTerms, pathText } from '../../../src/rank/lexical/terms.js';

const DIRS = ['src', 'tests', 'test', '__tests__', 'spec', 'testing', 'compat', '_compat', 'legacy', 'examples', '_example', 'docs_src',
  'single_include', 'lib', 'parseHTTP_v2', '.', '..', '', 'my tests', 'testsuite', 'Spec', 'a.d', 'data.csv'];
const FILES = ['index.ts', 'test_upload.py', 'upload_test.go', 'UploadTests.java', 'upload.test.tsx', 'upload.spec.mjs', 'upload_spec.rb',
  'UploadSpec.kt', 'test_helpers.rb', 'test_helper_x.c', '__init__.py', 'types.d.ts', '.d.ts', 'd.ts', '.gitignore', 'Makefile', 'tests',
  'spec', 'compat', 'retryUploadQueue.service.ts', 'x', 'README.md', 'lexicon.tsv', 'yarn.lock', 'package-lock.json', 'app.min.js'];

/** Every path of up to three directories from DIRS (joined with / or \ or //) over a file from FILES, with and without a leading /. */
function* paths(): Generator<string> {
  let n = 0;
  for (const file of FILES) {
    for (const a of DIRS) {
      for (const b of DIRS) {
        const sep = ['/', '\\', '//'][n++ % 3];
        const dirs = [a, b, DIRS[(n * 7) % DIRS.length]].slice(0, n % 4);
        const rel = [...dirs, file].join(sep);
        yield rel;
        yield `/${rel}`;
      }
    }
  }
}

describe('path facts and text, per directory', () => {
  it('equal the whole-path reference on every path shape', () => {
    let checked = 0;
    for (const p of paths()) {
      expect(pathFacts(p), p).toEqual(pathFactsOfParts(p));
      expect(pathText(p), p).toBe(pathTerms(p).join(' '));
      checked++;
    }
    expect(checked).toBeGreaterThan(20_000);
  });

  it('say the same twice (the cached directory) and mark tests and side code', () => {
    expect(pathFacts('a/tests/x.ts').test).toBe(true);
    expect(pathFacts('a/tests/y.ts').test).toBe(true);
    expect(pathFacts('a/testsuite/y.ts').test).toBe(false);
    expect(pathFacts('a/src/upload_test.go').test).toBe(true);
    expect(pathFacts('a/legacy/y.ts').side).toBe(true);
    expect(pathFacts('a\\examples\\y.ts')).toEqual(pathFactsOfParts('a/examples/y.ts'));
    expect(pathFacts('pkg/parseHTTP_v2/retryUpload.ts').names).toEqual(['retry', 'upload', 'parse', 'http', 'v', '2']);
    expect(pathText('a/b/c/d/retry.ts')).toBe('retry retry b c d');
  });
});
