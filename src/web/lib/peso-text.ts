/**
 * The text rules of the amount field (components/amount-input.tsx): what was typed, shown as $1,234.
 * They only add or drop the formatting ('$' and ','): a minus sign, centavos and any number of
 * digits stay, so the form can say what is wrong with them (checkBid, the schemas) instead of
 * quietly fixing it.
 */

/**
 * An amount field's value (as Mantine's NumberInput handed it over): a number, '' while empty, or
 * the typed digits when they are no plain number yet ('700.', '-', or more digits than a number
 * holds). Kept as typed: a form never rewrites what was written, it says what is wrong with it.
 */
export type Amount = number | string;

/**
 * The number in typed or pasted text, without formatting: '-1234.5', '700.', '-', '' when nothing.
 * ',' is always a thousands separator in Mexico ('1,800' is 1800), only '.' starts the centavos,
 * and anything else ('$', spaces, letters) is dropped. One minus sign anywhere makes it negative;
 * a second one, typed over the first, takes it away again.
 */
export function pesoDigits(text: string): string {
  const negative = text.split('-').length === 2;
  const point = text.indexOf('.');
  const whole = (point === -1 ? text : text.slice(0, point)).replace(/\D/g, '');
  const cents = point === -1 ? '' : `.${text.slice(point + 1).replace(/\D/g, '')}`;
  return `${negative ? '-' : ''}${whole}${cents}`;
}

/** Digits as shown: '-1234.5' is '-$1,234.5'; '' and a lone '-' stay as they are. */
export function formatPeso(digits: string): string {
  if (digits === '' || digits === '-') return digits;
  const negative = digits.startsWith('-');
  const unsigned = negative ? digits.slice(1) : digits;
  const point = unsigned.indexOf('.');
  const whole = point === -1 ? unsigned : unsigned.slice(0, point);
  const cents = point === -1 ? '' : unsigned.slice(point);
  // Leading zeros are shown as typed and left out of the groups, as react-number-format did ('$007').
  const zeros = /^0*/.exec(whole)?.[0] ?? '';
  const grouped = whole.slice(zeros.length).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${negative ? '-' : ''}$${zeros}${grouped}${cents}`;
}

/** What Mantine's NumberInput kept as text rather than a number: 0.50, 007, 700., -0. */
const KEEP_AS_TEXT = [/^(0\.0*|-0(\.0*)?)$/, /^-?0\d+(\.\d+)?\.?$/, /\.\d*0$/, /^-?\d+\.$/];

/**
 * The Amount a field's digits stand for, as NumberInput handed it over: a number when the text
 * is a plain number that reads back the same, the digits as text otherwise ('-', '700.', fourteen
 * digits or more), '' when empty. bid-input.ts reads either the same way (amountValue).
 */
export function amountOf(digits: string): Amount {
  if (digits === '') return '';
  const value = Number.parseFloat(digits);
  const isNumber =
    Number.isFinite(value) && value < Number.MAX_SAFE_INTEGER && digits.replace('.', '').length < 14 && !KEEP_AS_TEXT.some((pattern) => pattern.test(digits));
  return isNumber ? value : digits;
}

/** The digits an Amount is shown with. */
export function digitsOf(value: Amount): string {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  return pesoDigits(value);
}

/** Digits and the centavos point before `caret`: what the caret sits after, whatever the formatting. */
function significantBefore(text: string, caret: number): number {
  const point = text.indexOf('.');
  let count = 0;
  for (let i = 0; i < caret && i < text.length; i += 1) {
    const char = text[i] as string;
    if ((char >= '0' && char <= '9') || i === point) count += 1;
  }
  return count;
}

/** The caret position in `formatted` just after its `count`-th digit (or point); after the '$' for none. */
function caretAfter(formatted: string, count: number): number {
  let seen = 0;
  for (let i = 0; i < formatted.length; i += 1) {
    const char = formatted[i] as string;
    if ((char >= '0' && char <= '9') || char === '.') {
      if (count === 0) return i;
      seen += 1;
      if (seen === count) return i + 1;
    }
  }
  return formatted.length;
}

export interface Reformatted {
  text: string;
  caret: number;
  digits: string;
}

/**
 * An edit of the field, reformatted: `text` is what the input holds after the keystroke or paste,
 * `caret` where the caret is in it. The caret stays after the same digit it followed, so a comma
 * that appears or goes away does not throw it off.
 */
export function reformat(text: string, caret: number): Reformatted {
  const digits = pesoDigits(text);
  const formatted = formatPeso(digits);
  return { text: formatted, caret: caretAfter(formatted, significantBefore(text, caret)), digits };
}

/**
 * Where the caret goes before Backspace or Delete runs: over a thousands separator, so the key
 * removes the digit beside it rather than a comma that would only come back. Null: leave it.
 */
export function caretOverSeparator(text: string, caret: number, key: string): number | null {
  if (key === 'Backspace' && text[caret - 1] === ',') return caret - 1;
  if (key === 'Delete' && text[caret] === ',') return caret + 1;
  return null;
}

function isNumberText(value: Amount): boolean {
  return typeof value === 'string' && value !== '' && !Number.isNaN(Number(value));
}

/** Whether ArrowUp/ArrowDown may step this value: empty, or a number short of 2^53 ('-' is not). */
export function canStep(value: Amount): boolean {
  if (typeof value === 'number') return value < Number.MAX_SAFE_INTEGER;
  return value === '' || (isNumberText(value) && Number(value) < Number.MAX_SAFE_INTEGER);
}

function decimals(value: number | string): number {
  const match = String(value).match(/(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/);
  return match ? Math.max(0, (match[1]?.length ?? 0) - (match[2] ? Number(match[2]) : 0)) : 0;
}

/**
 * ArrowUp (+1) or ArrowDown (-1), as NumberInput stepped: by `step`, from `min` when empty, up to
 * `max` at most and down to `min` at least, keeping the centavos' precision. Null when the value
 * cannot be stepped (canStep).
 */
export function stepAmount(value: Amount, direction: 1 | -1, range: { step: number; min: number; max: number }): number | null {
  if (!canStep(value)) return null;
  const { step, min, max } = range;
  if (typeof value !== 'number' && !isNumberText(value)) return Math.min(Math.max(0, min), max);
  const precision = Math.max(decimals(value), decimals(step));
  const factor = 10 ** precision;
  const next = (Math.round(Number(value) * factor) + direction * Math.round(step * factor)) / factor;
  const bounded = direction > 0 ? Math.min(next, max) : Math.max(next, min);
  return Number.parseFloat(bounded.toFixed(precision));
}
