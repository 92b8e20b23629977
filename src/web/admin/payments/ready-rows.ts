import { grandTotal, type PaymentView, type WinnerSummary, type WinnersSummary, type WonItem } from '../../../domain/payments.js';
import { NO_SHIPPING, type Shipping } from './shipping-rules';

/** 'Listos para facturar': the winners summary as rows, and the items a draft may still take. */

/** A winners-summary entry with the shipping the seller typed before any draft exists (SPEC §3). */
export interface ReadyRow extends WinnerSummary, Shipping {
  /** The summary's key: winnerId, or winnerId:companyId for a winner's second company. */
  key: string;
  grandTotal: number;
}

/** The summary as rows, by winner name, each with its client-side shipping and grand total. */
export function readyRows(summary: WinnersSummary | undefined, shipping: Readonly<Record<string, Shipping>>): ReadyRow[] {
  if (!summary) return [];
  return Object.entries(summary)
    .map(([key, entry]): ReadyRow => {
      const own = shipping[key] ?? NO_SHIPPING;
      return { ...entry, key, ...own, grandTotal: grandTotal(entry.wonItems, own.shippingCost) };
    })
    .sort((a, b) => a.winnerName.localeCompare(b.winnerName, 'es-MX') || (a.companyName ?? a.companyId).localeCompare(b.companyName ?? b.companyId, 'es-MX'));
}

/** 'Agregar artículos disponibles': this winner's unbilled items that the draft's collecting account collects, not already in it. */
export function availableItemsFor(
  draft: Pick<PaymentView, 'winnerId' | 'companyId' | 'collectorId' | 'auctionIds'>,
  summary: WinnersSummary | undefined,
): WonItem[] {
  if (!summary) return [];
  const inDraft = new Set(draft.auctionIds);
  const seen = new Set<string>();
  const items: WonItem[] = [];
  for (const entry of Object.values(summary)) {
    // One company and one collecting account per payment (the server refuses a mix).
    if (entry.winnerId !== draft.winnerId || entry.companyId !== draft.companyId || entry.collectorId !== draft.collectorId) continue;
    for (const item of entry.wonItems) {
      if (inDraft.has(item.auctionId) || seen.has(item.auctionId)) continue;
      seen.add(item.auctionId);
      items.push(item);
    }
  }
  return items;
}
