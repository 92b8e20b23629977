/**
 * Whole pesos spelled out in Spanish ("diez mil pesos"), for the second look at a bid far above the
 * price: digits are easy to mistype by one zero, words are not easy to misread by one.
 */

const UNITS = ['', 'un', 'dos', 'tres', 'cuatro', 'cinco', 'seis', 'siete', 'ocho', 'nueve'];
const TEENS = ['diez', 'once', 'doce', 'trece', 'catorce', 'quince', 'dieciséis', 'diecisiete', 'dieciocho', 'diecinueve'];
const TWENTIES = ['veinte', 'veintiún', 'veintidós', 'veintitrés', 'veinticuatro', 'veinticinco', 'veintiséis', 'veintisiete', 'veintiocho', 'veintinueve'];
const TENS = ['', '', '', 'treinta', 'cuarenta', 'cincuenta', 'sesenta', 'setenta', 'ochenta', 'noventa'];
const HUNDREDS = ['', 'ciento', 'doscientos', 'trescientos', 'cuatrocientos', 'quinientos', 'seiscientos', 'setecientos', 'ochocientos', 'novecientos'];

/** The largest amount spelled out: 999,999 millones (a billón would need its own word). */
export const MAX_WORDS_AMOUNT = 999_999_999_999;

// Every group is followed by a noun (pesos, mil, millones), so 'uno' is always shortened to 'un'.
function below100(n: number): string {
  if (n < 10) return UNITS[n] ?? '';
  if (n < 20) return TEENS[n - 10] ?? '';
  if (n < 30) return TWENTIES[n - 20] ?? '';
  const unit = n % 10;
  const tens = TENS[Math.floor(n / 10)] ?? '';
  return unit ? `${tens} y ${UNITS[unit]}` : tens;
}

function below1000(n: number): string {
  if (n === 100) return 'cien';
  const rest = n % 100;
  return [HUNDREDS[Math.floor(n / 100)] ?? '', rest ? below100(rest) : ''].filter(Boolean).join(' ');
}

function belowMillion(n: number): string {
  const thousands = Math.floor(n / 1000);
  const rest = n % 1000;
  const head = thousands === 0 ? '' : thousands === 1 ? 'mil' : `${below1000(thousands)} mil`;
  return [head, rest ? below1000(rest) : ''].filter(Boolean).join(' ');
}

/**
 * `amount` whole pesos in words: 1 → 'un peso', 21,000 → 'veintiún mil pesos', 2,000,000 → 'dos
 * millones de pesos'. Throws a RangeError for a negative, fractional or too large amount.
 */
export function pesosInWords(amount: number): string {
  if (!Number.isInteger(amount) || amount < 0 || amount > MAX_WORDS_AMOUNT) throw new RangeError(`pesosInWords: ${amount}`);
  if (amount === 0) return 'cero pesos';
  if (amount === 1) return 'un peso';
  const millions = Math.floor(amount / 1_000_000);
  const rest = amount % 1_000_000;
  const head = millions === 0 ? '' : millions === 1 ? 'un millón' : `${belowMillion(millions)} millones`;
  // 'un millón de pesos', but 'un millón quinientos mil pesos'.
  const noun = millions > 0 && rest === 0 ? 'de pesos' : 'pesos';
  return [head, rest ? belowMillion(rest) : '', noun].filter(Boolean).join(' ');
}
