// The grams of prose lines' second BM25 field (rank/lexical/grams.ts): a line's gram keys are the keys of
// the same text's query grams, in every script, so a query finds exactly the grams a line holds.
import { describe, expect, it } from 'vitest';
import { forEachGram, gramKey, queryGrams } from '../../../src/rank/lexical/grams.js';

const TEXTS = [
  'The Castle of the KINGS, built in 1850 by parseConfig_v2',
  'والمدينة القاهرة عاصمة مصر',
  'Die Straße führt zum Schloß',
  'भारत की राजधानी नई दिल्ली है',
  '政府间气候变化专门委员会主席',
  '𠀋𠀌𠀍 a 𝐀𝐁𝐂𝐃 ok',
  '東京タワーの食べ物 药药房 ﾀﾜｰ',
];

describe('grams', () => {
  it('cuts each folded word that is no stopword into runs of three code points, a shorter word whole', () => {
    expect(queryGrams('the castle of kings')).toEqual(['cas', 'ast', 'stl', 'tle', 'kin', 'ing', 'ngs']);
    expect(queryGrams('Straße ok')).toEqual(['str', 'tra', 'ras', 'ass', 'sse', 'ok']);
  });

  it('cuts a Han character as a gram by itself, the other runs of its word as before (药房 and 药剂 share 药)', () => {
    expect(queryGrams('药房技术员')).toEqual(['药', '房', '技', '术', '员']);
    expect(queryGrams('药剂').filter((g) => queryGrams('药房').includes(g))).toEqual(['药']);
    expect(queryGrams('東京タワー 食べる')).toEqual(['東', '京', 'タワー', '食', 'べる']);
    expect(queryGrams('𠀋𠀌𠀍 ok')).toEqual(['𠀋', '𠀌', '𠀍', 'ok']);
    const keys: (number | string)[] = [];
    forEachGram('药药房', (k) => keys.push(k));
    expect(keys).toEqual(['药', '药', '房'].map(gramKey));
  });

  it('gives a line the keys of the grams a query of the same text has, numbers packed where no surrogate is', () => {
    for (const text of TEXTS) {
      const keys: (number | string)[] = [];
      forEachGram(text, (k) => keys.push(k));
      expect(new Set(keys)).toEqual(new Set(queryGrams(text).map(gramKey)));
    }
    expect(gramKey('ab')).toBe(97 * 65536 + 98);
    expect(gramKey('𠀋a')).toBe('𠀋a');
  });
});
