import { and, asc, desc, eq, exists, ilike, inArray, isNotNull, notExists, or, sql } from 'drizzle-orm';
import { isUuid } from '../../../domain/ids.js';
import type { PaymentStatus, PaymentView, WinnersSummary } from '../../../domain/payments.js';
import type { Db, Tx } from '../../db/connect.js';
import { escapeLike } from '../../db/like.js';
import { auctions, HOLDING_PAYMENT_STATUSES, paymentItems, payments } from '../../db/schema.js';
import { scopeWhere } from '../../policies/scope.js';
import { companyNameSql, companyNames } from '../companies/queries.js';
import { type PaymentScope, paymentScopeWhere } from './policies.js';
import { type PaymentItem, type PaymentRow, presentPayment } from './presenters.js';

/** The reads of billing: the payments list, the winners summary, one payment as the panel or the buyer sees it. */

async function itemsOf(db: Db | Tx, paymentIds: string[]): Promise<Map<string, PaymentItem[]>> {
  if (paymentIds.length === 0) return new Map();
  const rows = await db
    .select({ paymentId: paymentItems.paymentId, auctionId: paymentItems.auctionId, auctionName: paymentItems.auctionName, amount: paymentItems.amount })
    .from(paymentItems)
    .where(inArray(paymentItems.paymentId, paymentIds))
    .orderBy(asc(paymentItems.createdAt), asc(paymentItems.auctionName));
  const byPayment = new Map<string, PaymentItem[]>();
  for (const r of rows) byPayment.set(r.paymentId, [...(byPayment.get(r.paymentId) ?? []), r]);
  return byPayment;
}

/** One payment row with its items and its company's current name, as the panel sees it. */
export async function view(db: Db | Tx, row: PaymentRow): Promise<PaymentView> {
  const items = (await itemsOf(db, [row.id])).get(row.id) ?? [];
  const companyName = (await companyNames(db, [row.companyId])).get(row.companyId) ?? null;
  return presentPayment(row, items, companyName);
}

/** GET /api/payments: newest first, at most 500, optionally by status and a search over id, winner, company, item and carrier. */
export async function listPayments(db: Db, opts: { scope: PaymentScope; status?: PaymentStatus; q?: string }): Promise<PaymentView[]> {
  const q = opts.q?.trim();
  const like = q ? `%${escapeLike(q)}%` : '';
  const search = q
    ? or(
        ilike(payments.winnerName, like),
        ilike(companyNameSql(payments.companyId), like),
        ilike(payments.companyId, like),
        ilike(payments.shippingCarrier, like),
        exists(
          db
            .select({ one: sql`1` })
            .from(paymentItems)
            .where(and(eq(paymentItems.paymentId, payments.id), ilike(paymentItems.auctionName, like))),
        ),
        sql`${payments.id}::text like ${`${escapeLike(q.toLowerCase())}%`}`,
        eq(payments.mpPaymentId, q),
      )
    : undefined;
  const rows = await db
    .select({ payment: payments, companyName: companyNameSql(payments.companyId) })
    .from(payments)
    .where(and(paymentScopeWhere(opts.scope), opts.status ? eq(payments.paymentStatus, opts.status) : undefined, search))
    .orderBy(desc(payments.createdAt), desc(payments.id))
    .limit(500);
  const items = await itemsOf(
    db,
    rows.map((r) => r.payment.id),
  );
  return rows.map((r) => presentPayment(r.payment, items.get(r.payment.id) ?? [], r.companyName));
}

/**
 * GET /api/winners-summary: ended auctions with a winner that are in no draft, pending or paid
 * payment, grouped by winner (and company: a payment belongs to one).
 */
export async function winnersSummary(db: Db, opts: { scope: PaymentScope }): Promise<WinnersSummary> {
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
      endTime: auctions.endTime,
    })
    .from(auctions)
    .where(
      and(
        scopeWhere(opts.scope, auctions),
        eq(auctions.status, 'ended'),
        isNotNull(auctions.currentWinnerId),
        notExists(
          db
            .select({ one: sql`1` })
            .from(paymentItems)
            .where(and(eq(paymentItems.auctionId, auctions.id), inArray(paymentItems.paymentStatus, [...HOLDING_PAYMENT_STATUSES]))),
        ),
      ),
    )
    .orderBy(asc(auctions.endTime), asc(auctions.id))
    .limit(5000);
  const names = await companyNames(
    db,
    rows.map((r) => r.companyId),
  );
  const summary: WinnersSummary = {};
  /** The (company, seller) whose items a winner's plain key holds; another's go under `winnerId:companyId:sellerId`. */
  const firstGroup = new Map<string, string>();
  for (const r of rows) {
    const winnerId = r.winnerId as string;
    const group = `${r.companyId}:${r.sellerId ?? ''}`;
    if (!firstGroup.has(winnerId)) firstGroup.set(winnerId, group);
    const key = firstGroup.get(winnerId) === group ? winnerId : `${winnerId}:${group}`;
    let entry = summary[key];
    if (!entry) {
      entry = {
        winnerId,
        sellerId: r.sellerId,
        winnerName: r.winnerName ?? '',
        winnerWhatsapp: r.winnerWhatsapp,
        companyId: r.companyId,
        companyName: names.get(r.companyId) ?? null,
        wonItems: [],
        totalAmount: 0,
      };
      summary[key] = entry;
    }
    const amount = r.amount ?? 0;
    entry.wonItems.push({ auctionId: r.id, auctionName: r.name, amount });
    entry.totalAmount += amount;
    entry.winnerWhatsapp ??= r.winnerWhatsapp;
  }
  return summary;
}

/** The public checkout (GET /api/pay/{id}): what the buyer is asked to pay. */
export async function getCheckout(db: Db, id: string): Promise<PaymentView | null> {
  if (!isUuid(id)) return null;
  const [row] = await db.select().from(payments).where(eq(payments.id, id));
  return row ? view(db, row) : null;
}
