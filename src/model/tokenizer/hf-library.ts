// @huggingface/tokenizers, loaded on first use: the tokenizers simgrep compiles itself never need it,
// and loading it costs ~6 ms of every cold process (the package's CommonJS build; the same library
// as its ESM build).
import { createRequire } from 'node:module';
import type * as HF from '@huggingface/tokenizers';

let library: typeof HF | undefined;

export function hfTokenizers(): typeof HF {
  return library ??= createRequire(import.meta.url)('@huggingface/tokenizers') as typeof HF;
}
