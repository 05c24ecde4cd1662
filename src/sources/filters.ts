// What a walk keeps, with one meaning for a local directory and a remote prefix: extensions, hidden
// names, the size cap. Named files and objects skip these (only a walk applies them).

export interface WalkFilters {
  recursive?: boolean;
  hidden?: boolean;
  /** Extensions, e.g. ['.py', 'md']: the dot is optional, case is ignored; empty = all. */
  extensions?: string[];
  maxFileBytes?: number;
  /** List only: fetch no object ahead (a cluster coordinator lists; its workers read). */
  listOnly?: boolean;
}

/** '.PY', ' py' -> '.py'. */
export function normalizeExtensions(exts: string[] = []): string[] {
  return exts.map((e) => {
    const t = e.trim().toLowerCase();
    return t.startsWith('.') ? t : `.${t}`;
  });
}

/** Whether a file name (no directories) has one of the normalized extensions; a dotfile has none. */
export function hasWantedExtension(name: string, exts: string[]): boolean {
  if (exts.length === 0) return true;
  const dot = name.lastIndexOf('.');
  return dot > 0 && exts.includes(name.slice(dot).toLowerCase());
}

/** Whether any '/'-separated part of a relative path starts with a dot. */
export function isHiddenPath(rel: string): boolean {
  return rel.split('/').some((s) => s.startsWith('.'));
}

export function tooLargeMessage(display: string, size: number, maxFileBytes: number): string {
  return `skipped ${display}: ${size} bytes is over --max-filesize ${maxFileBytes}`;
}
