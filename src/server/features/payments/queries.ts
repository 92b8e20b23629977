import { and, asc, desc, eq, ilike, inArray, isNotNull, notExists, or, sql } from 'drizzle-orm';
import { isUuid } from '../../../domain/ids.js';
import type { PaymentStatus, PaymentView, WinnersSummary } from '../../../domain/payments.js';
import type { Db, Tx } from '../../db/connect.js';
import { escapeLike } from '../../db/like.js';
import { auctions, HOLDING_PAYMENT_STATUSES, paymentItems, payments } from '../../db/schema.js';
import { scopeWhere } from '../../policies/scope.js';
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

/** One payment row with its items, as the panel sees it. */
export async function view(db: Db | Tx, row: PaymentRow): Promise<PaymentView> {
  return presentPayment(row, (await itemsOf(db, [row.id])).get(row.id) ?? []);
}

/** GET /api/payments: newest first, at most 500, optionally by status and a search over winner, company and id. */
export async function listPayments(db: Db, opts: { scope: PaymentScope; status?: PaymentStatus; q?: string }): Promise<PaymentView[]> {
  const q = opts.q?.trim();
  const search = q
    ? or(
        ilike(payments.winnerName, `%${escapeLike(q)}%`),
        ilike(payments.companyName, `%${escapeLike(q)}%`),
        ilike(payments.companyId, `%${escapeLike(q)}%`),
        sql`${payments.id}::text like ${`${escapeLike(q.toLowerCase())}%`}`,
        eq(payments.mpPaymentId, q),
      )
    : undefined;
  const rows = await db
    .select()
    .from(payments)
    .where(and(paymentScopeWhere(opts.scope), opts.status ? eq(payments.paymentStatus, opts.status) : undefined, search))
    .orderBy(desc(payments.createdAt), desc(payments.id))
    .limit(500);
  const items = await itemsOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => presentPayment(r, items.get(r.id) ?? []));
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
  const companyNames = await companyNamesOf(
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
        companyName: companyNames.get(r.companyId) ?? null,
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

/** A company's display name, from the profile of one of its people (SPEC has no company entity). */
export async function companyNamesOf(db: Db | Tx, companyIds: string[]): Promise<Map<string, string>> {
  const ids = [...new Set(companyIds)];
  if (ids.length === 0) return new Map();
  const found = await db.execute(
    sql`select distinct on (company_id) company_id, company_name from user_profiles where company_id in (${sql.join(
      ids.map((id) => sql`${id}`),
      sql`, `,
    )}) and nullif(trim(company_name), '') is not null order by company_id, updated_at desc`,
  );
  return new Map((found as unknown as { rows: { company_id: string; company_name: string }[] }).rows.map((r) => [r.company_id, r.company_name]));
}

/** The public checkout (GET /api/pay/{id}): what the buyer is asked to pay. */
export async function getCheckout(db: Db, id: string): Promise<PaymentView | null> {
  if (!isUuid(id)) return null;
  const [row] = await db.select().from(payments).where(eq(payments.id, id));
  return row ? view(db, row) : null;
}
