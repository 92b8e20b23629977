import type { PaymentView } from '../../../domain/payments.js';
import { foldText } from '../../../domain/text.js';

/** The billing lists' search box: which rows it keeps. */

/** True when every word of the search appears in one of the row's texts (accents and case ignored). */
export function matchesSearch(texts: readonly (string | null | undefined)[], search: string): boolean {
  const words = foldText(search).split(' ').filter(Boolean);
  if (words.length === 0) return true;
  const haystack = foldText(texts.filter(Boolean).join(' '));
  return words.every((word) => haystack.includes(word));
}

/** What a payment row is searched by. */
export function paymentSearchTexts(p: Pick<PaymentView, 'id' | 'winnerName' | 'winnerWhatsapp' | 'companyName' | 'shippingCarrier' | 'wonItems'>): string[] {
  return [p.id, p.winnerName, p.winnerWhatsapp ?? '', p.companyName ?? '', p.shippingCarrier ?? '', ...p.wonItems.map((item) => item.auctionName)];
}
