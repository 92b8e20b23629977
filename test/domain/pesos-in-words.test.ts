import { describe, expect, it } from 'vitest';
import { MAX_WORDS_AMOUNT, pesosInWords } from '../../src/domain/pesos-in-words.js';

describe('pesosInWords', () => {
  it.each([
    [0, 'cero pesos'],
    [1, 'un peso'],
    [2, 'dos pesos'],
    [10, 'diez pesos'],
    [15, 'quince pesos'],
    [16, 'dieciséis pesos'],
    [20, 'veinte pesos'],
    [21, 'veintiún pesos'],
    [22, 'veintidós pesos'],
    [30, 'treinta pesos'],
    [31, 'treinta y un pesos'],
    [99, 'noventa y nueve pesos'],
    [100, 'cien pesos'],
    [101, 'ciento un pesos'],
    [115, 'ciento quince pesos'],
    [500, 'quinientos pesos'],
    [700, 'setecientos pesos'],
    [999, 'novecientos noventa y nueve pesos'],
    [1000, 'mil pesos'],
    [1001, 'mil un pesos'],
    [1800, 'mil ochocientos pesos'],
    [10_000, 'diez mil pesos'],
    [21_000, 'veintiún mil pesos'],
    [100_000, 'cien mil pesos'],
    [101_000, 'ciento un mil pesos'],
    [250_520, 'doscientos cincuenta mil quinientos veinte pesos'],
    [1_000_000, 'un millón de pesos'],
    [1_500_000, 'un millón quinientos mil pesos'],
    [1_000_001, 'un millón un pesos'],
    [2_000_000, 'dos millones de pesos'],
    [21_000_000, 'veintiún millones de pesos'],
    [100_000_000, 'cien millones de pesos'],
    [1_000_000_000, 'mil millones de pesos'],
    [99_999_999_999, 'noventa y nueve mil novecientos noventa y nueve millones novecientos noventa y nueve mil novecientos noventa y nueve pesos'],
  ])('spells %d as “%s”', (amount, words) => {
    expect(pesosInWords(amount)).toBe(words);
  });

  it('refuses what is not a whole, non-negative amount it can name', () => {
    for (const bad of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, MAX_WORDS_AMOUNT + 1]) {
      expect(() => pesosInWords(bad)).toThrow(RangeError);
    }
  });
});
