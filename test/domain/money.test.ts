import { describe, expect, it } from 'vitest';
import { formatMoney, isValidPesos } from '../../src/domain/money.js';

const nbsp = /\u00a0/g;

describe('formatMoney', () => {
  it.each([
    [0, '$0 MXN'],
    [1234, '$1,234 MXN'],
    [1_500_000, '$1,500,000 MXN'],
    [99.5, '$99.50 MXN'],
  ])('formats %d pesos as %s', (amount, expected) => {
    expect(formatMoney(amount).replace(nbsp, ' ')).toBe(expected);
  });

  it('shows a dash for a value that is not a number', () => {
    expect(formatMoney(Number.NaN)).toBe('—');
  });
});

describe('isValidPesos', () => {
  it.each([0, 1, 20, 999_999])('accepts %d', (v) => expect(isValidPesos(v)).toBe(true));
  it.each([-1, 1.5, Number.NaN, '20', null, 2 ** 60])('rejects %o', (v) => expect(isValidPesos(v)).toBe(false));
});
