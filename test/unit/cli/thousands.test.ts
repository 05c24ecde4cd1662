import { describe, expect, it } from 'vitest';
import { thousands } from '../../../src/cli/thousands.js';

describe('thousands', () => {
  it('writes counts as toLocaleString("en-US") does', () => {
    for (const x of [0, 1, 12, 999, 1000, 1001, 65_536, 989_081, 1_000_000, 12_345_678_901, -1, -1234, -999_999]) {
      expect(thousands(x)).toBe(x.toLocaleString('en-US'));
    }
  });

  it('rounds to a whole number first', () => {
    expect(thousands(1234.5)).toBe('1,235');
    expect(thousands(999.4)).toBe('999');
  });
});
