import { and, asc, desc, eq, exists, inArray, isNotNull, notExists, or, type SQL, sql } from 'drizzle-orm';
import { isUuid } from '../../../../domain/ids.js';
import type { PaymentStatus } from '../../../../domain/payment-status.js';
import type { PaymentView, PayoutStatus, WinnersSummary, WonItem } from '../../../../domain/payments.js';
import { foldText } from '../../../../domain/text.js';
import type { Db, Tx } from '../../../db/connect.js';
import { escapeLike, foldedSql } from '../../../db/like.js';
import { auctions, HOLDING_PAYMENT_STATUSES, liveLots, paymentItems, payments } from '../../../db/schema.js';
import { scopeWhere } from '../../../policies/scope.js';
import { companyNameSql, companyNames } from '../../../reads/companies.js';
import { onBlockHereSql } from '../../../reads/lot-runs.js';
import { realSale } from '../../../reads/real-sale.js';
import { winnerNotBlockedByCompany } from '../../companies/index.js';
import { collectorOf, collectorsOf, saleKey } from './collectors.js';
import { holdsAuctionOf, isInScope, type PaymentScope, paymentScopeWhere } from './policies.js';
import { type PaymentItem, type PaymentRow, presentPayment } from './presenters.js';

/** The reads of billing: the payments list, the winners summary, one payment as the panel or the buyer sees it. */

/**
 * The auction waits in 'Cuentas vencidas' for the seller's choice: a lot of an expired bill not
 * decided yet, or whose Segunda oportunidad ended without a sale (declined, expired, its bill
 * canceled), which leaves the choice open again (domain/unpaid.ts mayDecide; an offer still open or
 * paid holds the auction in its bill). Nobody is billed for it until the seller decides. `except`:
 * the expired bill whose lot is being decided now (a Segunda oportunidad bills its runner-up).
 */
export function awaitingDecisionSql(auctionId: SQL, opts: { except?: string } = {}): SQL {
  const except = opts.except ? sql` and e.payment_id <> ${opts.except}::uuid` : sql``;
  return sql`(exists (select 1 from expired_lots e
                       where e.auction_id = ${auctionId} and (e.decision is null or e.decision = 'secondChance')${except}))`;
}

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
  return presentPayment(row, items, companyName, await collectorOf(db, row));
}

/** Whether a payment row already read (locked before a change) is in the scope: paymentScopeWhere's test, on one row. */
export async function isPaymentInScope(tx: Db | Tx, scope: PaymentScope, row: Pick<PaymentRow, 'id' | 'companyId' | 'sellerId'>): Promise<boolean> {
  if (isInScope(scope, row)) return true;
  if (scope.kind !== 'seller' || row.sellerId !== null) return false;
  const [hit] = await tx
    .select({ one: sql`1` })
    .from(payments)
    .where(and(eq(payments.id, row.id), holdsAuctionOf(scope.userId)));
  return Boolean(hit);
}

/** Most words of a search that count: the box allows 100 characters. */
const MAX_SEARCH_WORDS = 10;

/**
 * The payments search, as the panel's search box sends it: every word of `q` must appear, ignoring
 * accents and case, in the winner's name, the company's name or id, the carrier or one of the item
 * names ('sofia' finds 'Sofía'). The whole text also finds a payment by the start of its id or by
 * the provider's payment id. Accents are folded in SQL with translate() (foldedSql), so PGlite
 * needs no unaccent extension.
 */
function searchWhere(db: Db, q: string): SQL | undefined {
  const words = foldText(q).split(' ').filter(Boolean).slice(0, MAX_SEARCH_WORDS);
  if (words.length === 0) return undefined;
  const matches = (column: SQL, like: string) => sql`${foldedSql(column)} like ${like}`;
  const byWords = words.map((word) => {
    const like = `%${escapeLike(word)}%`;
    return or(
      matches(sql`${payments.winnerName}`, like),
      matches(companyNameSql(payments.companyId), like),
      matches(sql`${payments.companyId}`, like),
      matches(sql`${payments.shippingCarrier}`, like),
      exists(
        db
          .select({ one: sql`1` })
          .from(paymentItems)
          .where(and(eq(paymentItems.paymentId, payments.id), matches(sql`${paymentItems.auctionName}`, like))),
      ),
    );
  });
  const trimmed = q.trim();
  return or(and(...byWords), sql`${payments.id}::text like ${`${escapeLike(trimmed.toLowerCase())}%`}`, eq(payments.mpPaymentId, trimmed));
}

/**
 * GET /api/payments: newest first, at most 500, optionally by status, by payout status (the
 * platform's 'Pago solicitado' filter) and a search over id, winner, company, item and carrier.
 */
export async function listPayments(
  db: Db,
  opts: { scope: PaymentScope; status?: PaymentStatus; payoutStatus?: PayoutStatus; q?: string },
): Promise<PaymentView[]> {
  const search = opts.q ? searchWhere(db, opts.q) : undefined;
  const rows = await db
    .select({ payment: payments, companyName: companyNameSql(payments.companyId) })
    .from(payments)
    .where(
      and(
        paymentScopeWhere(opts.scope),
        opts.status ? eq(payments.paymentStatus, opts.status) : undefined,
        opts.payoutStatus ? eq(payments.payoutStatus, opts.payoutStatus) : undefined,
        search,
      ),
    )
    .orderBy(desc(payments.createdAt), desc(payments.id))
    .limit(500);
  const items = await itemsOf(
    db,
    rows.map((r) => r.payment.id),
  );
  const collectors = await collectorsOf(
    db,
    rows.map((r) => r.payment),
  );
  return rows.map((r) => presentPayment(r.payment, items.get(r.payment.id) ?? [], r.companyName, collectors.get(saleKey(r.payment)) ?? null));
}

/** One future bill: a buyer's unbilled wins with one company and collecting account (collectors.ts). */
export interface UnbilledGroup {
  winnerId: string;
  winnerName: string;
  winnerWhatsapp: string | null;
  companyId: string;
  /** Null when the group holds lots of several sellers (the company's account collects for them). */
  sellerId: string | null;
  collectorId: string | null;
  auctionIds: string[];
  wonItems: WonItem[];
  totalAmount: number;
}

/**
 * Who won and has no bill yet: ended auctions with a real winner (no rehearsal, no simulated
 * bidder, not blocked by the company) that no draft, pending or paid payment holds and that do not
 * wait for the seller's choice in 'Cuentas vencidas', in the actor's scope, grouped per buyer,
 * company and collecting account, in the order first seen. Oldest end first; `sessionId`: only
 * that show's sales (its lots that were on the block there: an auction that closed while it waited
 * sold outside the show), in the show's lot order when `inLotOrder`.
 */
export async function unbilledWins(db: Db | Tx, opts: { scope: PaymentScope; sessionId?: string; inLotOrder?: boolean }): Promise<UnbilledGroup[]> {
  const query = db
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
    .from(auctions)
    .$dynamic();
  // A show's lot of the auction: one at most (live_lots_session_auction_key).
  const inShow = opts.sessionId ? query.innerJoin(liveLots, and(eq(liveLots.auctionId, auctions.id), eq(liveLots.sessionId, opts.sessionId))) : query;
  const rows = await inShow
    .where(
      and(
        scopeWhere(opts.scope, auctions),
        opts.sessionId ? onBlockHereSql({ id: sql`${liveLots.id}`, sessionId: sql`${liveLots.sessionId}`, auctionId: sql`${liveLots.auctionId}` }) : undefined,
        sql`not ${awaitingDecisionSql(sql`${auctions.id}`)}`,
        eq(auctions.status, 'ended'),
        isNotNull(auctions.currentWinnerId),
        // A rehearsal sells nothing, while it runs or after (live/sessions/rehearsal-snapshot.ts).
        realSale({ auctionId: auctions.id, winnerId: auctions.currentWinnerId }),
        winnerNotBlockedByCompany(auctions),
        notExists(
          db
            .select({ one: sql`1` })
            .from(paymentItems)
            .where(and(eq(paymentItems.auctionId, auctions.id), inArray(paymentItems.paymentStatus, [...HOLDING_PAYMENT_STATUSES]))),
        ),
      ),
    )
    .orderBy(...(opts.sessionId && opts.inLotOrder ? [asc(liveLots.order), asc(auctions.id)] : [asc(auctions.endTime), asc(auctions.id)]))
    .limit(5000);
  const collectors = await collectorsOf(db, rows);
  const groups = new Map<string, UnbilledGroup>();
  for (const r of rows) {
    const winnerId = r.winnerId as string;
    const collectorId = collectors.get(saleKey(r)) ?? null;
    const key = `${winnerId}:${r.companyId}:${collectorId ?? 'platform'}`;
    let group = groups.get(key);
    if (!group) {
      group = {
        winnerId,
        winnerName: r.winnerName ?? '',
        winnerWhatsapp: r.winnerWhatsapp,
        companyId: r.companyId,
        sellerId: r.sellerId,
        collectorId,
        auctionIds: [],
        wonItems: [],
        totalAmount: 0,
      };
      groups.set(key, group);
    }
    // Items of several sellers collected by the company's account: the bill has no one seller.
    if (group.sellerId !== r.sellerId) group.sellerId = null;
    const amount = r.amount ?? 0;
    group.auctionIds.push(r.id);
    group.wonItems.push({ auctionId: r.id, auctionName: r.name, amount });
    group.totalAmount += amount;
    group.winnerWhatsapp ??= r.winnerWhatsapp;
  }
  return [...groups.values()];
}

/**
 * GET /api/winners-summary: the unbilled wins (unbilledWins), one entry per bill. A winner's first
 * group goes under their id; a group of another company or collecting account under
 * `winnerId:companyId:collector`.
 */
export async function winnersSummary(db: Db, opts: { scope: PaymentScope /** Only this show's lots. */; sessionId?: string }): Promise<WinnersSummary> {
  const groups = await unbilledWins(db, opts);
  const names = await companyNames(
    db,
    groups.map((g) => g.companyId),
  );
  const summary: WinnersSummary = {};
  const seen = new Set<string>();
  for (const g of groups) {
    const key = seen.has(g.winnerId) ? `${g.winnerId}:${g.companyId}:${g.collectorId ?? 'platform'}` : g.winnerId;
    seen.add(g.winnerId);
    summary[key] = {
      winnerId: g.winnerId,
      sellerId: g.sellerId,
      winnerName: g.winnerName,
      winnerWhatsapp: g.winnerWhatsapp,
      companyId: g.companyId,
      companyName: names.get(g.companyId) ?? null,
      collectorId: g.collectorId,
      wonItems: g.wonItems,
      totalAmount: g.totalAmount,
    };
  }
  return summary;
}

/** The public checkout (GET /api/pay/{id}): what the buyer is asked to pay. */
export async function getCheckout(db: Db, id: string): Promise<PaymentView | null> {
  if (!isUuid(id)) return null;
  const [row] = await db.select().from(payments).where(eq(payments.id, id));
  return row ? view(db, row) : null;
}
