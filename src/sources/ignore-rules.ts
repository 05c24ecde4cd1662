// .gitignore / .ignore matching with git's precedence: the deepest rule file that has an opinion wins;
// a repository's .git/info/exclude holds rules of its root, below that root's own rule files (as
// git and ripgrep apply it). A directory holding `.git` (a directory or a file: a nested repository,
// a linked worktree, a submodule) starts a repository of its own: the .gitignore files and exclude
// of the repositories around it stop there, while .ignore files go on applying (as in ripgrep's
// ignore crate, crates/ignore/src/dir.rs: `saw_git` stops the git matchers only).
import { existsSync, statSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { GitignoreRules } from './gitignore-rules.js';
import { readRuleFile } from './rule-file.js';

const RULE_FILES = ['.gitignore', '.ignore'];
/** The repository's own exclude file, relative to a directory holding `.git`. */
export const GIT_EXCLUDE = path.join('.git', 'info', 'exclude');

/**
 * The exclude file git reads for the repository whose root `dir` holds `.git`: `.git/info/exclude`;
 * for a `.git` file (`gitdir: X`: a linked worktree, a submodule), `info/exclude` of X's common
 * directory (X/commondir, as git reads it for a linked worktree) or of X itself (a submodule).
 */
export function excludeFileOf(dir: string): string {
  const own = path.join(dir, GIT_EXCLUDE);
  const dotGit = path.join(dir, '.git');
  try { if (statSync(dotGit).isDirectory()) return own; } catch { return own; }
  // Read as rule files are (regular files only, never blocking, capped): a .git FIFO must not hang the walk.
  const link = readRuleFile(dotGit);
  const m = link.ok ? /^gitdir: *(.+?)\s*$/m.exec(link.text) : null;
  if (!m) return own;
  const gitDir = path.resolve(dir, m[1]);
  const common = readRuleFile(path.join(gitDir, 'commondir'));
  return path.join(common.ok && common.text.trim() ? path.resolve(gitDir, common.text.trim()) : gitDir, 'info', 'exclude');
}

/** A new rule set (gitignore-rules.ts: git's syntax, matched without backtracking). */
const ignore = (): GitignoreRules => new GitignoreRules();

/** `git`: rules of .gitignore or .git/info/exclude, which stop at the next repository down. */
interface RuleSet { dir: string; rules: GitignoreRules; git: boolean }

/** Told about a rule file that exists but could not be used (its absolute path, and why). */
export type RuleFileProblem = (file: string, problem: string) => void;

/** An immutable stack of rule sets, one per rule file read, root first. */
export class IgnoreStack {
  private constructor(private readonly sets: readonly RuleSet[]) {}

  static empty(): IgnoreStack { return new IgnoreStack([]); }

  /** Rule files of `root`'s ancestors up to the enclosing git repository, as git would apply them. */
  static async forRoot(root: string, report?: RuleFileProblem): Promise<IgnoreStack> {
    const ancestors: string[] = [];
    let dir = path.resolve(root);
    for (;;) {
      const parent = path.dirname(dir);
      if (parent === dir) return IgnoreStack.empty(); // no repository above: only the tree's own files
      dir = parent;
      ancestors.unshift(dir);
      if (await exists(path.join(dir, '.git'))) break;
    }
    let stack = IgnoreStack.empty();
    for (const a of ancestors) stack = await stack.enter(a, undefined, report);
    // A root the user named inside an ignored directory (e.g. node_modules/pkg) is searched anyway,
    // as ripgrep does: the rules that would hide all of it are dropped.
    return stack.ignores(path.resolve(root), true) ? IgnoreStack.empty() : stack;
  }

  /**
   * The stack for a child directory: adds its rule files when it has any. `names`, the directory's
   * entries when the caller has listed it, saves a failing read per rule file in the common case.
   */
  async enter(dir: string, names?: ReadonlySet<string>, report?: RuleFileProblem, ioDir: string | Buffer = dir): Promise<IgnoreStack> {
    let sets = this.sets;
    if (names ? names.has('.git') : existsSync(path.join(dir, '.git'))) {
      // A repository's root: the enclosing repositories' git rules end here (git and ripgrep stop at
      // the nearest .git).
      if (sets.some((s) => s.git)) sets = sets.filter((s) => !s.git);
      // Its exclude file: its own set under the root's rule files, so a .gitignore or .ignore there
      // (or deeper) that has an opinion wins over it.
      const file = typeof ioDir === 'string' ? excludeFileOf(dir) : path.join(dir, GIT_EXCLUDE);
      const read = readRuleFile(typeof ioDir === 'string' ? file : Buffer.concat([ioDir, Buffer.from(path.sep + GIT_EXCLUDE)]));
      if (read.ok) sets = [...sets, { dir, rules: ignore().add(read.text), git: true }];
      else if (!read.missing) report?.(file, read.problem);
    }
    // .gitignore then .ignore, each its own set: the .ignore, checked first, wins where both have an opinion.
    for (const name of RULE_FILES) {
      if (names && !names.has(name)) continue;
      const file = path.join(dir, name);
      // A directory whose name is not valid UTF-8 is read by its raw bytes (ioDir).
      const read = readRuleFile(typeof ioDir === 'string' ? file : Buffer.concat([ioDir, Buffer.from(path.sep + name)]));
      if (!read.ok) {
        // A rule file that exists but cannot be used is said, not dropped: its files may be searched.
        if (!read.missing) report?.(file, read.problem);
        continue;
      }
      sets = [...sets, { dir, rules: ignore().add(read.text), git: name === '.gitignore' }];
    }
    return sets === this.sets ? this : new IgnoreStack(sets);
  }

  ignores(absPath: string, isDir: boolean): boolean {
    for (let i = this.sets.length - 1; i >= 0; i--) {
      const { dir, rules } = this.sets[i];
      const rel = path.relative(dir, absPath).split(path.sep).join('/');
      if (!rel || rel.startsWith('..')) continue;
      const verdict = rules.test(isDir ? `${rel}/` : rel);
      if (verdict.ignored) return true;
      if (verdict.unignored) return false;
    }
    return false;
  }
}

async function exists(p: string): Promise<boolean> {
  try { await stat(p); return true; } catch { return false; }
}
