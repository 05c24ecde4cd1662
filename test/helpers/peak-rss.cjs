// Preloaded into a spawned CLI (NODE_OPTIONS=--require …): at exit, writes the whole process's peak
// resident set size in KiB (getrusage maxrss, every thread included) to $SIMGREP_PEAK_RSS_FILE.
const { isMainThread } = require('node:worker_threads');

const file = process.env.SIMGREP_PEAK_RSS_FILE;
if (isMainThread && file) {
  process.on('exit', () => { require('node:fs').writeFileSync(file, String(process.resourceUsage().maxRSS)); });
}
