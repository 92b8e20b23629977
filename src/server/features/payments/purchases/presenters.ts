import type { MyPurchases, PurchaseBill, PurchaseGroup, PurchaseItem, PurchaseSeller } from '../../../../domain/purchases.js';
import { purchaseBillStatus } from '../../../../domain/purchases.js';
import type { BillRow, ItemRow, PurchaseRows } from './queries.js';

/** The JSON of 'Mis compras': sellers (newest activity first), each with its shows and 'Subastas', each with bills, unbilled lots and offers. */

const toDate = (ms: number | null) => (ms === null ? null : new Date(ms));

export function presentBill(row: BillRow, items: ItemRow[], now: Date): PurchaseBill {
  const status = purchaseBillStatus(
    { paymentStatus: row.payment_status, providerStatus: row.provider_status, deadlineAt: toDate(row.deadline_at), expiredAt: toDate(row.expired_at) },
    now,
  );
  // The link is the buyer's own checkout (also where a voucher under way is seen again); shown only while it can still work.
  const isPayable = (status === 'toPay' || status === 'processing') && (row.link_expires_at === null || row.link_expires_at > now.getTime());
  return {
    paymentId: row.id,
    status,
    items: items.map((i) => ({ auctionId: i.auction_id, auctionName: i.auction_name, amount: i.amount })),
    totalAmount: row.total_amount,
    shippingCarrier: row.shipping_carrier,
    shippingCost: row.shipping_cost,
    grandTotal: row.total_amount + row.shipping_cost,
    deadlineAt: row.deadline_at,
    paidAt: row.paid_at,
    payLink: isPayable ? row.payment_link : null,
  };
}

export function presentPurchases(data: PurchaseRows, now: Date): MyPurchases {
  const itemsOf = new Map<string, ItemRow[]>();
  for (const i of data.items) itemsOf.set(i.payment_id, [...(itemsOf.get(i.payment_id) ?? []), i]);

  const sellers = new Map<string, PurchaseSeller>();
  const sellerOf = (companyId: string, fallbackName: string | null = null) => {
    let seller = sellers.get(companyId);
    if (!seller) {
      seller = {
        companyId,
        companyName: data.companyNames.get(companyId) ?? fallbackName,
        whatsappLink: data.whatsappLinks.get(companyId) ?? null,
        groups: [],
      };
      sellers.set(companyId, seller);
    }
    return seller;
  };
  const groupOf = (companyId: string, sessionId: string | null, fallbackName: string | null = null): PurchaseGroup => {
    const seller = sellerOf(companyId, fallbackName);
    const session = sessionId ? data.sessions.get(sessionId) : undefined;
    const id = session ? session.id : null;
    let group = seller.groups.find((g) => g.sessionId === id);
    if (!group) {
      group = { sessionId: id, title: session?.title ?? null, scheduledAt: session?.scheduled_at ?? null, bills: [], unbilled: [], secondChances: [] };
      seller.groups.push(group);
    }
    return group;
  };

  const offeredBills = new Set(data.offers.map((o) => o.payment_id).filter((id): id is string => id !== null));
  const billsById = new Map(data.bills.map((b) => [b.id, b]));
  /** Lots the buyer sees in a bill: not listed again as waiting for one. */
  const billed = new Set(data.items.map((i) => i.auction_id));

  for (const row of data.bills) {
    if (offeredBills.has(row.id)) continue;
    groupOf(row.company_id, row.session_id, row.company_name).bills.push(presentBill(row, itemsOf.get(row.id) ?? [], now));
  }
  for (const offer of data.offers) {
    const billRow = offer.payment_id ? billsById.get(offer.payment_id) : undefined;
    const item: PurchaseItem = { auctionId: offer.auction_id, auctionName: offer.auction_name, amount: offer.amount };
    groupOf(offer.company_id, offer.session_id).secondChances.push({
      offerId: offer.id,
      item,
      bill: billRow ? presentBill(billRow, itemsOf.get(billRow.id) ?? [], now) : null,
    });
  }
  for (const lot of data.won) {
    if (billed.has(lot.id)) continue;
    groupOf(lot.company_id, lot.session_id).unbilled.push({ auctionId: lot.id, auctionName: lot.name, amount: lot.amount });
  }

  // Shows newest first, 'Subastas' after them.
  for (const seller of sellers.values())
    seller.groups.sort((a, b) => (b.scheduledAt ?? Number.NEGATIVE_INFINITY) - (a.scheduledAt ?? Number.NEGATIVE_INFINITY));
  return { sellers: [...sellers.values()], serverNow: now.getTime() };
}
