// .gitignore / .ignore matching with git's precedence: the deepest rule file that has an opinion wins.
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';

const RULE_FILES = ['.gitignore', '.ignore'];

interface RuleSet { dir: string; rules: Ignore }

/** An immutable stack of rule sets, one per directory that had rule files, root first. */
export class IgnoreStack {
  private constructor(private readonly sets: readonly RuleSet[]) {}

  static empty(): IgnoreStack { return new IgnoreStack([]); }

  /** Rule files of `root`'s ancestors up to the enclosing git repository, as git would apply them. */
  static async forRoot(root: string): Promise<IgnoreStack> {
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
    for (const a of ancestors) stack = await stack.enter(a);
    // A root the user named inside an ignored directory (e.g. node_modules/pkg) is searched anyway,
    // as ripgrep does: the rules that would hide all of it are dropped.
    return stack.ignores(path.resolve(root), true) ? IgnoreStack.empty() : stack;
  }

  /**
   * The stack for a child directory: adds its rule files when it has any. `names`, the directory's
   * entries when the caller has listed it, saves a failing read per rule file in the common case.
   */
  async enter(dir: string, names?: ReadonlySet<string>): Promise<IgnoreStack> {
    let rules: Ignore | null = null;
    for (const name of RULE_FILES) {
      if (names && !names.has(name)) continue;
      let text: string;
      try { text = await readFile(path.join(dir, name), 'utf8'); } catch { continue; }
      rules ??= ignore();
      rules.add(text);
    }
    return rules ? new IgnoreStack([...this.sets, { dir, rules }]) : this;
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
