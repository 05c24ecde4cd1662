// Whether this process is simgrep's own (the CLI, its servers and workers) rather than a program that
// embeds the library: only simgrep's own processes load LanceDB's dependencies the lean way
// (apache-arrow's single-file build, OpenTelemetry deferred; see lancedb.ts).

let own = false;

/** Called first thing by the CLI. */
export function markOwnProcess(): void {
  own = true;
}

export function isOwnProcess(): boolean {
  return own;
}
