import { and, asc, desc, eq, inArray, isNotNull, notExists, sql } from 'drizzle-orm';
import type { ShippingRules } from '../../../domain/after-show.js';
import type { PaymentView, WonItem } from '../../../domain/payments.js';
import { type ShowBillPreview, shippingFor } from '../../../domain/show-billing.js';
import type { Db, Tx } from '../../db/connect.js';
import { auctions, HOLDING_PAYMENT_STATUSES, liveLots, paymentItems, payments } from '../../db/schema.js';
import { scopeWhere } from '../../policies/scope.js';
import { companyNames } from '../../reads/companies.js';
import { onBlockHereSql } from '../../reads/lot-runs.js';
import { realSale } from '../../reads/real-sale.js';
import { winnerNotBlockedByCompany } from '../companies/index.js';
import { awaitingDecisionSql, collectorsOf, type PaymentItem, type PaymentScope, paymentScopeWhere, presentPayment, saleKey } from '../payments/index.js';

/** The reads of 'Cobrar el show': who won the show's lots and has no bill for them yet, and the show's bills. */

/** One future bill: a buyer's unbilled wins of the show with one company and collecting account (collectors.ts). */
export interface ShowBillGroup {
  winnerId: string;
  winnerName: string;
  winnerWhatsapp: string | null;
  companyId: string;
  auctionIds: string[];
  wonItems: WonItem[];
  totalAmount: number;
}

/**
 * The show's lots that ended with a real winner (no rehearsal, no simulated bidder), that were
 * sold in this show (on its block), that no draft, pending or paid bill holds and that do not wait
 * for the seller's choice in 'Cuentas vencidas', in the actor's scope, grouped as the winners
 * summary groups them: per buyer, company and collecting account. In practice one group per buyer.
 */
export async function unbilledGroups(db: Db | Tx, opts: { sessionId: string; scope: PaymentScope }): Promise<ShowBillGroup[]> {
  const rows = await db
    .select({
      id: auctions.id,
      name: auctions.name,
      amount: auctions.currentPrice,
      winnerId: auctions.currentWinnerId,
      winnerName: auctions.currentWinnerName,
      winnerWhatsapp: auctions.winnerWhatsapp,
      companyId: auctions.companyId,
      sellerId: auctions.sellerId,
    })
    .from(liveLots)
    .innerJoin(auctions, eq(auctions.id, liveLots.auctionId))
    .where(
      and(
        eq(liveLots.sessionId, opts.sessionId),
        scopeWhere(opts.scope, auctions),
        eq(auctions.status, 'ended'),
        isNotNull(auctions.currentWinnerId),
        realSale({ auctionId: auctions.id, winnerId: auctions.currentWinnerId }),
        winnerNotBlockedByCompany(auctions),
        // Sold in this show: on its block (an auction that closed while its lot waited sold outside the show).
        onBlockHereSql({ id: sql`${liveLots.id}`, sessionId: sql`${liveLots.sessionId}`, auctionId: sql`${liveLots.auctionId}` }),
        // Not waiting in 'Cuentas vencidas' for the seller's choice.
        sql`not ${awaitingDecisionSql(sql`${auctions.id}`)}`,
        notExists(
          db
            .select({ one: sql`1` })
            .from(paymentItems)
            .where(and(eq(paymentItems.auctionId, auctions.id), inArray(paymentItems.paymentStatus, [...HOLDING_PAYMENT_STATUSES]))),
        ),
      ),
    )
    .orderBy(asc(liveLots.order), asc(auctions.id));
  const collectors = await collectorsOf(db, rows);
  const groups = new Map<string, ShowBillGroup>();
  for (const r of rows) {
    const winnerId = r.winnerId as string;
    const key = `${winnerId}:${r.companyId}:${collectors.get(saleKey(r)) ?? 'platform'}`;
    let group = groups.get(key);
    if (!group) {
      group = {
        winnerId,
        winnerName: r.winnerName ?? '',
        winnerWhatsapp: r.winnerWhatsapp,
        companyId: r.companyId,
        auctionIds: [],
        wonItems: [],
        totalAmount: 0,
      };
      groups.set(key, group);
    }
    const amount = r.amount ?? 0;
    group.auctionIds.push(r.id);
    group.wonItems.push({ auctionId: r.id, auctionName: r.name, amount });
    group.totalAmount += amount;
    group.winnerWhatsapp ??= r.winnerWhatsapp;
  }
  return [...groups.values()];
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
