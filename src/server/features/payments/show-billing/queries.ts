import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import type { ShippingRules } from '../../../../domain/after-show.js';
import type { PaymentView } from '../../../../domain/payments.js';
import { type ShowBillPreview, shippingFor } from '../../../../domain/show-billing.js';
import type { Db, Tx } from '../../../db/connect.js';
import { paymentItems, payments } from '../../../db/schema.js';
import { companyNames } from '../../../reads/companies.js';
import { collectorsOf, saleKey } from '../bills/collectors.js';
import { type PaymentScope, paymentScopeWhere } from '../bills/policies.js';
import { type PaymentItem, presentPayment } from '../bills/presenters.js';
import { type UnbilledGroup, unbilledWins } from '../bills/queries.js';

/** The reads of 'Cobrar el show': who won the show's lots and has no bill for them yet, and the show's bills. */

/** One future bill of the show: a buyer's unbilled wins in it with one company and collecting account. */
export type ShowBillGroup = UnbilledGroup;

/**
 * The show's sales that no bill holds yet, grouped as its bills will be (payments' unbilledWins,
 * the one query of who won and has no bill), in the show's lot order. In practice one group per buyer.
 */
export async function unbilledGroups(db: Db | Tx, opts: { sessionId: string; scope: PaymentScope }): Promise<ShowBillGroup[]> {
  return unbilledWins(db, { ...opts, inLotOrder: true });
}

/** What each group's bill would be under the rules (none yet: no shipping). */
export function previewOf(groups: readonly ShowBillGroup[], rules: ShippingRules | null): ShowBillPreview[] {
  return groups.map((g) => {
    const shipping = rules ? shippingFor(rules, g.wonItems) : { shippingCarrier: null, shippingCost: 0 };
    return {
      winnerId: g.winnerId,
      winnerName: g.winnerName,
      winnerWhatsapp: g.winnerWhatsapp,
      wonItems: g.wonItems,
      totalAmount: g.totalAmount,
      ...shipping,
      grandTotal: g.totalAmount + shipping.shippingCost,
    };
  });
}

/** Every bill of the show in the actor's scope (any status), oldest first, in one read per kind. */
export async function showPayments(db: Db | Tx, opts: { sessionId: string; scope: PaymentScope; status?: 'draft' }): Promise<PaymentView[]> {
  const rows = await db
    .select()
    .from(payments)
    .where(and(eq(payments.sessionId, opts.sessionId), paymentScopeWhere(opts.scope), opts.status ? eq(payments.paymentStatus, opts.status) : undefined))
    .orderBy(asc(payments.createdAt), desc(payments.id))
    .limit(2000);
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const itemRows = await db
    .select({ paymentId: paymentItems.paymentId, auctionId: paymentItems.auctionId, auctionName: paymentItems.auctionName, amount: paymentItems.amount })
    .from(paymentItems)
    .where(inArray(paymentItems.paymentId, ids))
    .orderBy(asc(paymentItems.createdAt), asc(paymentItems.auctionName));
  const items = new Map<string, PaymentItem[]>();
  for (const r of itemRows) items.set(r.paymentId, [...(items.get(r.paymentId) ?? []), r]);
  const names = await companyNames(
    db,
    rows.map((r) => r.companyId),
  );
  const collectors = await collectorsOf(db, rows);
  return rows.map((r) => presentPayment(r, items.get(r.id) ?? [], names.get(r.companyId) ?? null, collectors.get(saleKey(r)) ?? null));
}
