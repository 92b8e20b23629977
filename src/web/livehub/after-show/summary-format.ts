import type { LotBand, ShowSummary, SummaryPaymentState, ViewerPoint } from '../../../domain/show-summary.js';

/** The pure parts of the show's summary panel: chart data, bands and labels (tested in test/web). */

export const PAYMENT_STATE_COLORS: Record<SummaryPaymentState, string> = {
  expired: 'red',
  unbilled: 'orange',
  draft: 'gray',
  linkSent: 'blue',
  paid: 'green',
};

/** A shaded band of the viewers chart: the time a lot was on the block, inside the chart's time span. */
export interface ViewerBand {
  x1: number;
  x2: number;
  color: string;
  name: string;
}

/**
 * The bands of the lots that were on the block within the samples' span (a band cut to it; a run
 * still going ends at `now`), alternating two colours so neighbouring lots can be told apart.
 */
export function viewerBands(viewers: readonly ViewerPoint[], bands: readonly LotBand[], now: number): ViewerBand[] {
  const first = viewers[0]?.at;
  const last = viewers[viewers.length - 1]?.at;
  if (first === undefined || last === undefined || last <= first) return [];
  const out: ViewerBand[] = [];
  for (const band of bands) {
    const x1 = Math.max(first, band.openedAt);
    const x2 = Math.min(last, band.closedAt ?? now);
    if (x2 <= x1) continue;
    out.push({ x1, x2, name: band.name, color: out.length % 2 === 0 ? 'yellow.3' : 'grape.3' });
  }
  return out;
}

/** The price chart's bars: one per lot, labelled by its order; an unsold lot reached nothing. */
export function priceBars(prices: ShowSummary['series']['prices']): { lot: string; name: string; startingPrice: number; finalPrice: number }[] {
  return prices.map((p, i) => ({ lot: `#${i + 1}`, name: p.name, startingPrice: p.startingPrice, finalPrice: p.finalPrice ?? 0 }));
}

const clock = new Intl.DateTimeFormat('es-MX', { timeZone: 'America/Mexico_City', hour: '2-digit', minute: '2-digit', hour12: false });

/** '18:05', Mexico City time, for the viewers chart's axis. */
export const clockTime = (ms: number): string => (Number.isFinite(ms) ? clock.format(ms) : '');

/** 1.456 → '1.46'; null → null (no sale, or free starting prices). */
export function formatRatio(ratio: number | null): string | null {
  if (ratio === null || !Number.isFinite(ratio)) return null;
  return ratio.toLocaleString('es-MX', { minimumFractionDigits: 0, maximumFractionDigits: 2 });
}

/** True when the summary has nothing to show yet: no lot sold and nobody bought. */
export const isEmptySummary = (summary: ShowSummary): boolean => summary.totals.lotsSold === 0 && summary.buyers.length === 0;

/** A chat with the buyer: 'https://wa.me/523312345678', or null without a number. */
export function waMeHref(whatsapp: string | null): string | null {
  const digits = whatsapp?.replace(/\D/g, '') ?? '';
  return digits ? `https://wa.me/${digits}` : null;
}

const compact = new Intl.NumberFormat('es-MX', { notation: 'compact', maximumFractionDigits: 1 });

/** '$1.2 k' for a chart's axis, where the full amount does not fit. */
export const compactPesos = (amount: number): string => `$${compact.format(amount)}`;
