import { describe, expect, it } from 'vitest';
import { parseDecimal } from './setting_range.ts';

describe('parseDecimal', () => {
  it('reads decimal numbers, with a sign, a point or an exponent', () => {
    expect(['12', '-3', '+0.5', '.25', '5.', '1e-3', '2E+4'].map(parseDecimal)).toEqual([
      12, -3, 0.5, 0.25, 5, 1e-3, 2e4,
    ]);
  });

  it('refuses what Number() would read but a person would not write as a decimal', () => {
    for (const text of ['', ' 5', '5 ', '0x10', '0b1', 'Infinity', '-Infinity', 'NaN', '1e', '.', '1,5', '1_000']) {
      expect(parseDecimal(text), JSON.stringify(text)).toBeNaN();
    }
  });
});
