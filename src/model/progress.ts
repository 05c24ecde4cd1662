// Download progress events and one plain-text rendering of them (the CLI decides where to draw it).

export interface DownloadProgress {
  /** Path of the file inside the repo, e.g. "model.safetensors". */
  file: string;
  received: number;
  /** Content-Length, or null when the server did not send one. */
  total: number | null;
}

export type ProgressListener = (p: DownloadProgress) => void;

function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KB', 'MB', 'GB'];
  let v = n / 1024;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${v.toFixed(1)} ${units[u]}`;
}

/** "model.safetensors  12.0 MB / 30.5 MB  39%" (no total: "model.safetensors  12.0 MB"). */
export function formatProgress(p: DownloadProgress): string {
  if (p.total === null || p.total <= 0) return `${p.file}  ${formatBytes(p.received)}`;
  const pct = Math.min(100, Math.floor((p.received / p.total) * 100));
  return `${p.file}  ${formatBytes(p.received)} / ${formatBytes(p.total)}  ${pct}%`;
}
