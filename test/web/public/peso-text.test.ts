import fc from 'fast-check';
import { numericFormatter } from 'react-number-format';
import { describe, expect, it } from 'vitest';
import { MAX_PRICE } from '../../../src/domain/money';
import { amountOf, canStep, caretOverSeparator, digitsOf, formatPeso, pesoDigits, reformat, stepAmount } from '../../../src/web/lib/peso-text';
import { amountValue, checkBid } from '../../../src/web/public/bidding/bid-input';

/** Types `keys` one by one at the caret (a '|' in `start` marks it), as the input would: the text and caret after each. */
function typeInto(start: string, keys: string): { text: string; caret: number } {
  let caret = start.indexOf('|');
  let text = start.replace('|', '');
  for (const key of keys) {
    const edit = reformat(text.slice(0, caret) + key + text.slice(caret), caret + 1);
    text = edit.text;
    caret = edit.caret;
  }
  return { text, caret };
}

/** The text with a '|' at the caret, for readable expectations. */
const withCaret = ({ text, caret }: { text: string; caret: number }) => `${text.slice(0, caret)}|${text.slice(caret)}`;

/** Backspace at the caret, after the field's keydown moved it over a separator. */
function backspace(marked: string): string {
  const text = marked.replace('|', '');
  let caret = marked.indexOf('|');
  caret = caretOverSeparator(text, caret, 'Backspace') ?? caret;
  return withCaret(reformat(text.slice(0, caret - 1) + text.slice(caret), caret - 1));
}

const PESO_FORMAT = { prefix: '$', thousandSeparator: ',', allowNegative: true } as const;

describe('formatPeso: $ and thousands separators, nothing else', () => {
  it('formats whole pesos, centavos and a minus sign as NumberInput did', () => {
    expect(formatPeso('1234')).toBe('$1,234');
    expect(formatPeso('700')).toBe('$700');
    expect(formatPeso('1234567.5')).toBe('$1,234,567.5');
    expect(formatPeso('-120')).toBe('-$120');
    expect(formatPeso('99999999999')).toBe('$99,999,999,999');
    expect(formatPeso('700.')).toBe('$700.');
    expect(formatPeso('-')).toBe('-');
    expect(formatPeso('')).toBe('');
  });

  it("matches react-number-format (NumberInput's formatter) on any digits", () => {
    const digits = fc
      .tuple(fc.boolean(), fc.stringMatching(/^\d{0,25}$/), fc.option(fc.stringMatching(/^\d{0,4}$/)))
      .map(([negative, whole, cents]) => `${negative ? '-' : ''}${whole}${cents === null ? '' : `.${cents}`}`);
    fc.assert(
      fc.property(digits, (d) => {
        expect(formatPeso(d)).toBe(numericFormatter(d, PESO_FORMAT));
        // And reading the shown text back gives the same digits.
        expect(pesoDigits(formatPeso(d))).toBe(d);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('typing keeps every character the bidder meant and the caret after the same digit', () => {
  it('formats as the digits come', () => {
    expect(withCaret(typeInto('|', '1234567'))).toBe('$1,234,567|');
    expect(withCaret(typeInto('|', '700'))).toBe('$700|');
  });

  it('a digit typed in the middle keeps the caret after it, across a new comma', () => {
    // '$1,234' with the caret after '1', then '9': '$19,234', caret after the '9'.
    expect(withCaret(typeInto('$1|,234', '9'))).toBe('$19|,234');
    // '$999' with the caret after the first '9', then '1': '$9,199', caret after the '1'.
    expect(withCaret(typeInto('$9|99', '1'))).toBe('$9,1|99');
    // A comma going away: '$1,000' loses its '1' and becomes '$000', caret before the zeros.
    expect(withCaret(reformat('$,000', 1))).toBe('$|000');
  });

  it('a minus sign stays, before the $, whether typed first or later; a second one takes it away', () => {
    expect(withCaret(typeInto('|', '-120'))).toBe('-$120|');
    expect(withCaret(typeInto('$120|', '-'))).toBe('-$120|');
    expect(withCaret(typeInto('$|120', '-'))).toBe('-$|120');
    expect(withCaret(typeInto('-$120|', '-'))).toBe('$120|');
    expect(amountOf(pesoDigits('-$120'))).toBe(-120);
  });

  it('centavos stay, with "." only; a second point is dropped', () => {
    expect(withCaret(typeInto('|', '1800.5'))).toBe('$1,800.5|');
    expect(withCaret(typeInto('|', '1800.'))).toBe('$1,800.|');
    expect(withCaret(typeInto('|', '1.2.3'))).toBe('$1.23|');
  });

  it('more digits than the top price stay', () => {
    expect(withCaret(typeInto('|', '99999999999'))).toBe('$99,999,999,999|');
    expect(amountOf(pesoDigits('$99,999,999,999'))).toBe(99_999_999_999);
    expect(checkBid(amountOf(pesoDigits('$99,999,999,999')), '', false, 1800)).toEqual({ amount: 'bidTooHigh' });
  });

  it('letters and spaces go, without moving the caret', () => {
    expect(withCaret(typeInto('$12|3', 'a'))).toBe('$12|3');
    expect(withCaret(typeInto('$12|3', ' '))).toBe('$12|3');
  });

  it("a comma typed is a thousands separator, never the centavos: '1,800' is 1800", () => {
    expect(withCaret(typeInto('|', '1,800'))).toBe('$1,800|');
    expect(amountOf(pesoDigits('1,800'))).toBe(1800);
  });

  it("pasting '1,800', '$1,800' or '$ 1 800' over the whole field gives $1,800", () => {
    for (const pasted of ['1,800', '$1,800', '$ 1 800', '1800']) {
      const edit = reformat(pasted, pasted.length);
      expect(withCaret(edit)).toBe('$1,800|');
      expect(amountOf(edit.digits)).toBe(1800);
    }
    // Pasted into the middle: '$1|00' + '2,5' → '$12,500', caret after the '5'.
    expect(withCaret(reformat('$12,500', 5))).toBe('$12,5|00');
  });

  it('typing before the $ puts the digit after it', () => {
    expect(withCaret(typeInto('|$123', '5'))).toBe('$5|,123');
  });

  it('Backspace or Delete next to a comma removes the digit beside it, not the comma', () => {
    expect(backspace('$1,|234')).toBe('$|234');
    expect(backspace('$12,3|45')).toBe('$1,2|45');
    expect(caretOverSeparator('$1,234', 2, 'Delete')).toBe(3);
    expect(caretOverSeparator('$1,234', 3, 'Delete')).toBeNull();
    expect(caretOverSeparator('$1,234', 3, 'a')).toBeNull();
  });

  it('any text, reformatted, keeps its digits in order and is stable', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('1', '2', '0', '9', ',', '.', '-', '$', ' ', 'a') }), fc.nat(), (text, at) => {
        const caret = at % (text.length + 1);
        const edit = reformat(text, caret);
        expect(edit.text.replace(/\D/g, '')).toBe(text.replace(/\D/g, ''));
        expect(edit.caret).toBeGreaterThanOrEqual(0);
        expect(edit.caret).toBeLessThanOrEqual(edit.text.length);
        expect(reformat(edit.text, edit.caret)).toEqual(edit);
      }),
      { numRuns: 2000 },
    );
  });
});

describe("amountOf: the Amount NumberInput handed the form (bid-input.ts's contract)", () => {
  it('a number for a plain number', () => {
    expect(amountOf('1800')).toBe(1800);
    expect(amountOf('-120')).toBe(-120);
    expect(amountOf('1800.5')).toBe(1800.5);
    expect(amountOf('.5')).toBe(0.5);
    expect(amountOf('9999999999999')).toBe(9_999_999_999_999);
  });

  it("'' when empty, and the digits as text when they are no plain number (yet)", () => {
    expect(amountOf('')).toBe('');
    for (const text of ['-', '.', '700.', '0.', '-0', '1.50', '007', '99999999999999', '123456789012345678901']) expect(amountOf(text)).toBe(text);
  });

  it('reads back as the number typed, whichever it is (amountValue)', () => {
    expect(amountValue(amountOf('700.'))).toBe(700);
    expect(amountValue(amountOf('-'))).toBeUndefined();
    expect(amountValue(amountOf('99999999999999'))).toBe(99_999_999_999_999);
    expect(checkBid(amountOf('1800.5'), '', false, 1800)).toEqual({ amount: 'bidInteger' });
    expect(checkBid(amountOf('-'), '', false, 1800)).toEqual({ amount: 'bidRequired' });
  });

  it('what the form sets (a number) is shown as is; text as its digits', () => {
    expect(formatPeso(digitsOf(1800))).toBe('$1,800');
    expect(formatPeso(digitsOf(''))).toBe('');
    expect(formatPeso(digitsOf('700.'))).toBe('$700.');
    expect(formatPeso(digitsOf(Number.NaN))).toBe('');
  });
});

describe('stepAmount: ArrowUp and ArrowDown, as NumberInput stepped', () => {
  const range = { step: 100, min: 1800, max: MAX_PRICE };
  it('starts from the minimum when empty', () => {
    expect(stepAmount('', 1, range)).toBe(1800);
    expect(stepAmount('', -1, range)).toBe(1800);
  });

  it('steps by the increment, up to the top price and down to the minimum', () => {
    expect(stepAmount(1800, 1, range)).toBe(1900);
    expect(stepAmount(2000, -1, range)).toBe(1900);
    expect(stepAmount(1850, -1, range)).toBe(1800);
    expect(stepAmount(700, 1, range)).toBe(800);
    expect(stepAmount(700, -1, range)).toBe(1800);
    expect(stepAmount(MAX_PRICE - 50, 1, range)).toBe(MAX_PRICE);
    expect(stepAmount('1800.', 1, range)).toBe(1900);
    expect(stepAmount(1800.5, 1, range)).toBe(1900.5);
  });

  it("leaves what it cannot step: '-' and numbers past 2^53", () => {
    expect(canStep('-')).toBe(false);
    expect(stepAmount('-', 1, range)).toBeNull();
    expect(stepAmount('99999999999999999', 1, range)).toBeNull();
  });
});
