// Progress on stderr, only when stderr is a terminal: model downloads and long searches.
import type { SearchProgress } from '../pipeline/types.js';
import { thousands } from './thousands.js';

export interface Progress {
  download(p: { file: string; received: number; total: number | null }): void;
  search(s: SearchProgress): void;
  clear(): void;
}

const SHOW_AFTER_MS = 1000;
const WAITING_AFTER_MS = 2000;

export function createProgress(stream: NodeJS.WriteStream): Progress {
  // Off a terminal nothing is drawn, and nothing is formatted.
  if (stream.isTTY !== true) return { download() {}, search() {}, clear() {} };
  let shown = false;
  const draw = (text: string) => {
    shown = true;
    stream.write(`\r\x1b[K${text}`);
  };
  return {
    download({ file, received, total }) {
      const mb = (n: number) => (n / 1048576).toFixed(1);
      if (total) {
        const width = 30;
        const done = Math.round((received / total) * width);
        draw(`downloading ${file} [${'#'.repeat(done)}${' '.repeat(width - done)}] ${mb(received)}/${mb(total)} MB`);
      } else {
        draw(`downloading ${file} ${mb(received)} MB`);
      }
    },
    search(s) {
      if (s.ms < SHOW_AFTER_MS) return;
      const shards = s.shards ? `shards ${s.shards.done}/${s.shards.total}${s.shards.listing ? '+ (listing)' : ''}, ` : '';
      const rate = `${shards}searched ${s.files} files, ${thousands(s.lines)} lines (${thousands((s.lines / s.ms) * 1000)} lines/s)`;
      // A read open this long is a slow or stuck source: say which, so the wait has a name.
      const waiting = s.waitingOn && s.waitingOn.ms >= WAITING_AFTER_MS ? `; waiting on ${s.waitingOn.path} for ${Math.floor(s.waitingOn.ms / 1000)} s` : '';
      draw(rate + waiting);
    },
    clear() {
      if (shown) stream.write('\r\x1b[K');
      shown = false;
    },
  };
}
