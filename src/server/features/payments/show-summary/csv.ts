import { slugify } from '../../../../domain/live-public.js';
import { formatMoney } from '../../../../domain/money.js';
import type { ShowSummary, SummaryPaymentState } from '../../../../domain/show-summary.js';

/**
 * The table per buyer as a CSV file Excel opens as it is in Mexico: UTF-8 with a byte-order mark
 * (so accents survive), comma-separated (es-MX's list separator), CRLF lines, every cell that holds
 * a quote, a comma or a line break quoted with its quotes doubled. A text cell that starts with
 * = + - @ (or a tab or carriage return) would run as a formula in a spreadsheet: it gets a leading
 * apostrophe, so it reads as text.
 */

const BOM = '\uFEFF';
const FORMULA_START = /^[=+\-@\t\r]/;

/** One cell: numbers as they are, text guarded against formulas and quoted when it must be. */
export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The whole file: the byte-order mark, then a line per row. */
export function toCsv(rows: readonly (readonly (string | number | null | undefined)[])[]): string {
  return `${BOM}${rows.map((row) => row.map(csvCell).join(',')).join('\r\n')}\r\n`;
}

/** 'resumen-relojes-del-viernes-2030-01-04.csv': the show's title and its date in Mexico City. */
export function csvFilename(title: string, scheduledAt: Date): string {
  const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Mexico_City', year: 'numeric', month: '2-digit', day: '2-digit' }).format(scheduledAt);
  const slug = slugify(title).slice(0, 60).replace(/-+$/, '') || 'show';
  return `resumen-${slug}-${day}.csv`;
}

export interface CsvWords {
  headers: { buyer: string; whatsapp: string; lots: string; total: string; payment: string };
  states: Record<SummaryPaymentState, string>;
}

/** The table per buyer: name, WhatsApp, lots won ('Reloj ($1,200 MXN); Lámpara ($800 MXN)'), total in pesos, payment state. */
export function buyersCsv(summary: Pick<ShowSummary, 'buyers'>, words: CsvWords): string {
  const header = [words.headers.buyer, words.headers.whatsapp, words.headers.lots, words.headers.total, words.headers.payment];
  const lines = summary.buyers.map((b) => [
    b.name,
    b.whatsapp,
    b.lots.map((l) => `${l.name} (${formatMoney(l.amount)})`).join('; '),
    b.total,
    words.states[b.paymentState],
  ]);
  return toCsv([header, ...lines]);
}
