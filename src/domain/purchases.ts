/**
 * 'Mis compras' (GET /api/me/purchases): what a buyer won and owes, by seller and by show. Only
 * the buyer's own lots, bills and second-chance offers; nothing of another buyer's.
 */
import { billExpiresAt, isPaymentUnderway } from './unpaid.js';

/**
 * A bill as the buyer sees it: 'Por pagar', 'Pago en proceso' (a cash voucher or a card under review,
 * not yet confirmed), 'Pagado', 'Vencido' (its deadline passed unpaid), 'Cancelado'.
 */
export const PURCHASE_BILL_STATUSES = ['toPay', 'processing', 'paid', 'expired', 'canceled'] as const;
export type PurchaseBillStatus = (typeof PURCHASE_BILL_STATUSES)[number];

/** One lot the buyer won (or was offered), at the amount it is billed or sold for. */
export interface PurchaseItem {
  auctionId: string;
  auctionName: string;
  amount: number;
}

export interface PurchaseBill {
  paymentId: string;
  status: PurchaseBillStatus;
  items: PurchaseItem[];
  totalAmount: number;
  /** The carrier, or the pickup text ('Entrega en punto: …'), or null without shipping. */
  shippingCarrier: string | null;
  shippingCost: number;
  grandTotal: number;
  /** Epoch ms the buyer must pay by, or null. */
  deadlineAt: number | null;
  /** Epoch ms it was paid, or null. */
  paidAt: number | null;
  /** The buyer's own checkout link, only while the bill is payable (pending and before its deadline). */
  payLink: string | null;
}

/** 'Segunda oportunidad': a lot another buyer did not pay, offered to this buyer at their own highest bid. */
export interface SecondChanceEntry {
  offerId: string;
  item: PurchaseItem;
  /** Its bill, when the seller made one (shown while it is not a draft). */
  bill: PurchaseBill | null;
}

/** A show of the seller's ('sessionId' set), or 'Subastas': the lots won outside any show. */
export interface PurchaseGroup {
  sessionId: string | null;
  /** The show's title; null for 'Subastas'. */
  title: string | null;
  /** Epoch ms the show was scheduled at; null for 'Subastas'. */
  scheduledAt: number | null;
  bills: PurchaseBill[];
  /** Won lots with no bill shown yet ('El vendedor te enviará tu cuenta'). */
  unbilled: PurchaseItem[];
  secondChances: SecondChanceEntry[];
}

export interface PurchaseSeller {
  companyId: string;
  companyName: string | null;
  /**
   * The seller's public WhatsApp: the group link ('wa.me', 'chat.whatsapp.com' or 'api.whatsapp.com')
   * they put on their shows, the same one the live page shows; null when none of their shows has one.
   */
  whatsappLink: string | null;
  groups: PurchaseGroup[];
}

/** GET /api/me/purchases */
export interface MyPurchases {
  sellers: PurchaseSeller[];
  /** The server's clock (epoch ms), so the page can tell a deadline's distance. */
  serverNow: number;
}

/** What the buyer sees for a bill's stored state, at `now`. Drafts and plain cancellations never reach here. */
export function purchaseBillStatus(
  p: { paymentStatus: string; providerStatus: string | null; deadlineAt: Date | null; expiredAt: Date | null },
  now: Date,
): PurchaseBillStatus {
  if (p.paymentStatus === 'paid') return 'paid';
  if (p.paymentStatus === 'pending') {
    // A voucher paid at the store in time is confirmed hours later: the bill waits as the expiry job does.
    if (p.deadlineAt && billExpiresAt(p.deadlineAt, p.providerStatus) <= now) return 'expired';
    return isPaymentUnderway(p.providerStatus) ? 'processing' : 'toPay';
  }
  return p.expiredAt ? 'expired' : 'canceled';
}
