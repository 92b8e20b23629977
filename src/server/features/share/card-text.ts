import { formatMoney } from '../../../domain/money.js';
import { messages } from '../../messages.js';
import { mexicoCityDate } from './dates.js';

/** What a card says, in words: when a show is, a price, counts and a replay's length (messages.share). */

const share = messages.share;

/** When a show is, as a card says it: *EN VIVO ahora*, *Show terminado*, or its date in Mexico City. */
export function showWhen(status: string, scheduledAt: Date | string): string {
  if (status === 'live' || status === 'paused') return share.liveNow;
  return status === 'ended' ? share.ended : mexicoCityDate(new Date(scheduledAt));
}

/** An auction's price as a card says it: what it sold for (a lot's card), ended, the current bid, or the starting price. */
export function priceText(a: { ended: boolean; soldFor: number | null; currentPrice: number | null; startingPrice: number }): string {
  if (a.ended) return a.soldFor !== null ? share.soldFor.replace('{price}', formatMoney(a.soldFor)) : share.auctionEnded;
  return a.currentPrice !== null
    ? share.currentBid.replace('{price}', formatMoney(a.currentPrice))
    : share.startingPrice.replace('{price}', formatMoney(a.startingPrice));
}

/** `12 lotes`, `1 lote`. */
export const lotsText = (n: number) => (n === 1 ? share.oneLot : share.lots.replace('{n}', String(n)));

/** A replay's length as a card says it: `42 min`, `1 h 5 min`; at least a minute. */
export function durationText(ms: number): string {
  const minutes = Math.max(1, Math.round(ms / 60_000));
  if (minutes < 60) return share.minutes.replace('{n}', String(minutes));
  return share.hoursMinutes.replace('{h}', String(Math.floor(minutes / 60))).replace('{m}', String(minutes % 60));
}

/** `12 lotes, 8 vendidos`: the lots, and how many sold when any did. */
export function resultsText(lots: number, sold: number): string {
  if (lots === 0) return '';
  if (sold === 0) return lotsText(lots);
  return `${lotsText(lots)}, ${sold === 1 ? share.oneSold : share.sold.replace('{n}', String(sold))}`;
}
