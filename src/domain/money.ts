/** Money is integer Mexican pesos everywhere; this is the one place it becomes text. */
const pesos = new Intl.NumberFormat('es-MX', {
  style: 'currency',
  currency: 'MXN',
  minimumFractionDigits: 0,
  maximumFractionDigits: 0,
});

const pesosWithCents = new Intl.NumberFormat('es-MX', {
  style: 'currency',
  currency: 'MXN',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/** Formats whole pesos as `$1,234 MXN`; a non-integer amount keeps its centavos. */
export function formatMoney(amount: number): string {
  if (!Number.isFinite(amount)) return '—';
  const text = Number.isInteger(amount) ? pesos.format(amount) : pesosWithCents.format(amount);
  return `${text} MXN`;
}

/** True for a valid price: an integer number of pesos, zero or more. */
export function isValidPesos(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/** Prices stay below what an integer column holds, with room for bids on top. */
export const MAX_PRICE = 100_000_000;
