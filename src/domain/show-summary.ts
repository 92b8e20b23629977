import type { SessionStatus } from './live-public.js';

/**
 * A show's summary (GET /api/live-sessions/{id}/summary): its totals, one row per lot and per buyer,
 * and the series its charts draw. Money in whole pesos, times in epoch milliseconds. The seller's
 * side (who may change the session) reads buyers in full; anyone else allowed to see the session
 * (a co-seller of the company) reads them masked.
 */

/** How often the viewer count is sampled during a live show (server/features/payments/show-summary/sampler.ts). */
export const VIEWER_SAMPLE_MS = 5_000;

/**
 * Where a lot stands: sold (ended with a winner), unsold (ended or passed without one), on the block,
 * waiting, or notOffered: its auction closed while the lot waited in the queue (its own end, a
 * buy-now on its page), outside the show, so it counts nowhere in the show's figures or bill.
 */
export const SUMMARY_LOT_STATUSES = ['sold', 'unsold', 'live', 'queued', 'notOffered'] as const;
export type SummaryLotStatus = (typeof SUMMARY_LOT_STATUSES)[number];

/**
 * A won lot's bill, and a buyer's (the one that most needs the seller, in this order: expired,
 * unbilled, draft, linkSent, paid). 'Sin cobrar', 'Borrador', 'Enlace enviado', 'Pagado', 'Vencido'.
 */
export const SUMMARY_PAYMENT_STATES = ['expired', 'unbilled', 'draft', 'linkSent', 'paid'] as const;
export type SummaryPaymentState = (typeof SUMMARY_PAYMENT_STATES)[number];

export interface ShowSummaryTotals {
  grossSold: number;
  lotsSold: number;
  lotsUnsold: number;
  /** Real buyers who won something (a rehearsal's simulated bidders are not buyers). */
  buyers: number;
  /** grossSold / lotsSold, rounded to the peso; 0 with no sale. */
  averageSale: number;
  /** The average starting price of the lots sold; 0 with no sale. */
  averageStartingPrice: number;
  /** The lots sold reached this many times their starting prices (sum of sales / sum of starting prices); null with no sale or free starts. */
  saleToStartRatio: number | null;
  peakViewers: number;
  averageViewers: number;
  /** Sales held in a paid bill, and the rest of grossSold. */
  paidAmount: number;
  unpaidAmount: number;
}

export interface ShowSummaryLot {
  lotId: string;
  order: number;
  auctionId: string;
  name: string;
  startingPrice: number;
  /** The price it sold for; null unless sold. */
  finalPrice: number | null;
  /** The winner's name (masked for others); null unless sold. */
  winnerName: string | null;
  status: SummaryLotStatus;
  bids: number;
}

export interface ShowSummaryWonLot {
  auctionId: string;
  name: string;
  amount: number;
  paymentState: SummaryPaymentState;
}

export interface ShowSummaryBuyer {
  /** Null when masked. */
  buyerId: string | null;
  name: string;
  /** Null when masked or unknown. */
  whatsapp: string | null;
  lots: ShowSummaryWonLot[];
  total: number;
  paymentState: SummaryPaymentState;
}

export interface ViewerPoint {
  at: number;
  viewers: number;
}

/** When a lot was on the block; closedAt null while it still runs. */
export interface LotBand {
  lotId: string;
  name: string;
  openedAt: number;
  closedAt: number | null;
}

export interface LotPricePoint {
  lotId: string;
  name: string;
  startingPrice: number;
  /** Null unless sold. */
  finalPrice: number | null;
}

export interface ShowSummary {
  sessionId: string;
  title: string;
  status: SessionStatus;
  rehearsal: boolean;
  /** True when buyer data is masked (the reader is not the seller's side). */
  masked: boolean;
  totals: ShowSummaryTotals;
  lots: ShowSummaryLot[];
  buyers: ShowSummaryBuyer[];
  series: { viewers: ViewerPoint[]; lotBands: LotBand[]; prices: LotPricePoint[] };
  serverNow: number;
}

/** The state that speaks for a buyer's lots: the first of SUMMARY_PAYMENT_STATES among them ('unbilled' for none). */
export function buyerPaymentState(states: readonly SummaryPaymentState[]): SummaryPaymentState {
  for (const state of SUMMARY_PAYMENT_STATES) if (states.includes(state)) return state;
  return 'unbilled';
}

/** At most `max` points for a chart: consecutive samples merged, each bucket keeping its first time and its peak. */
export function downsampleViewers(points: readonly ViewerPoint[], max: number): ViewerPoint[] {
  if (points.length <= max || max < 1) return [...points];
  const size = Math.ceil(points.length / max);
  const out: ViewerPoint[] = [];
  for (let i = 0; i < points.length; i += size) {
    const bucket = points.slice(i, i + size);
    out.push({ at: bucket[0]?.at ?? 0, viewers: Math.max(...bucket.map((p) => p.viewers)) });
  }
  return out;
}
