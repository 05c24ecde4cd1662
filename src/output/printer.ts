// The Printer seam: HOW to print. Printers get a write function; only cli/ touches process streams.
import type { SearchResult } from '../rank/windows.js';

export interface Printer {
  result(r: SearchResult): void;
  end?(): void;
}

export type Write = (text: string) => void;

/** Distances are float32 values: six decimals carry all their meaningful precision. */
export function roundDistance(d: number): number {
  return Math.round(d * 1e6) / 1e6;
}
