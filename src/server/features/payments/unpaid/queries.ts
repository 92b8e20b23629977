import { type SQL, sql } from 'drizzle-orm';
import type { ExpiredLotDecision, SecondChanceStatus } from '../../../../domain/after-show.js';
import { isPlatformAdmin } from '../../../../domain/role-rules.js';
import {
  type BidLine,
  CASH_PAYMENT_GRACE_HOURS,
  type ExpiredAnswer,
  type ExpiredBillView,
  type MyUnpaidAnswer,
  mayDecide,
  PAYMENT_UNDERWAY_STATUSES,
  runnerUpOf,
  type SecondChanceOfferView,
  type StrikesAnswer,
} from '../../../../domain/unpaid.js';
import { type Db, rows, type Tx } from '../../../db/connect.js';
import type { DomainEvent } from '../../../realtime/publisher.js';
import { type Actor, type PaymentScope, paymentScope } from '../bills/policies.js';

/** Reads for the seller's "Cuentas vencidas", the struck buyers, and a buyer's own warning. */

const iso = (d: Date | string | null): string | null => (d === null ? null : new Date(d).toISOString());

/** The payments a scope sees, as SQL over `p` (payments/policies.ts's rule, written for raw queries). */
export function scopeSql(scope: PaymentScope): SQL {
  switch (scope.kind) {
    case 'all':
      return sql`true`;
    case 'company':
      return sql`(p.company_id = ${scope.companyId} or p.seller_id = ${scope.userId}::uuid)`;
    case 'seller':
      return sql`(p.seller_id = ${scope.userId}::uuid or (p.seller_id is null and exists (
        select 1 from payment_items pi join auctions a on a.id = pi.auction_id where pi.payment_id = p.id and a.seller_id = ${scope.userId}::uuid)))`;
  }
}

/** The company whose strikes the actor manages: their own; a platform admin sees every company. */
export const strikesCompany = (actor: Actor): string | null => (isPlatformAdmin(actor) ? null : actor.companyId);

/** The auction's winner is cleared when it is still this buyer's and no bill holds it (`winnerOf`: the offers, as SQL rows of auction_id and buyer_id). */
const clearWinnersSql = (winnerOf: SQL) => sql`
    update auctions a
       set current_winner_id = null, current_winner_name = null, winner_email = null, winner_whatsapp = null,
           version = a.version + 1, updated_at = now()
      from ${winnerOf} w
     where a.id = w.auction_id and a.current_winner_id = w.buyer_id
       and not exists (select 1 from payment_items pi where pi.auction_id = a.id and pi.payment_status in ('draft', 'pending', 'paid'))`;

/**
 * A Segunda oportunidad that ends without a sale (the runner-up declined it, let its bill expire,
 * or the seller canceled that bill) leaves its lot without a winner: nobody is to be billed for it,
 * and it waits in 'Cuentas vencidas' for the seller's choice again.
 */
export async function clearOfferWinner(db: Db | Tx, offer: { auctionId: string; buyerId: string }): Promise<void> {
  await db.execute(clearWinnersSql(sql`(select ${offer.auctionId}::uuid as auction_id, ${offer.buyerId}::uuid as buyer_id)`));
}

/**
 * A Segunda oportunidad follows its bill: paid → 'paid', canceled by hand → 'canceled' (an expired
 * one is the expiry job's), which leaves its lot without a winner (clearOfferWinner). Answers
 * nothing; run before reading or deciding.
 */
export async function syncOffers(db: Db | Tx): Promise<void> {
  await db.execute(sql`
    with synced as (
      update second_chance_offers o
         set status = case when p.payment_status = 'paid' then 'paid' else 'canceled' end, answered_at = coalesce(o.answered_at, now())
        from payments p
       where p.id = o.payment_id and o.status = 'offered'
         and (p.payment_status = 'paid' or (p.payment_status = 'canceled' and p.expired_at is null))
      returning o.auction_id, o.buyer_id, o.status)
    ${clearWinnersSql(sql`(select auction_id, buyer_id from synced where status = 'canceled')`)}`);
}

/** Each bidder's own highest standing bid on these auctions (withdrawn lines are not bids), highest first (the earlier line first on a tie). */
export async function bidLines(db: Db | Tx, auctionIds: string[]): Promise<Map<string, BidLine[]>> {
  const answer = new Map<string, BidLine[]>();
  if (auctionIds.length === 0) return answer;
  const found = rows<{ auction_id: string; bidder_id: string; bidder_name: string; amount: number }>(
    await db.execute(sql`
      select b.auction_id, b.bidder_id, (array_agg(b.bidder_name order by b.seq desc))[1] as bidder_name, max(b.amount)::int as amount, min(b.seq) as first_seq
        from bids b
       where b.withdrawn_at is null and b.auction_id in (${sql.join(
         auctionIds.map((id) => sql`${id}::uuid`),
         sql`, `,
       )})
       group by b.auction_id, b.bidder_id
       order by b.auction_id, max(b.amount) desc, min(b.seq)`),
  );
  for (const r of found) {
    const list = answer.get(r.auction_id) ?? [];
    list.push({ bidderId: r.bidder_id, bidderName: r.bidder_name, amount: Number(r.amount) });
    answer.set(r.auction_id, list);
  }
  return answer;
}

/** Who let a Segunda oportunidad on these lots go (declined or let it expire), by `paymentId:auctionId`. */
export async function passedBuyers(db: Db | Tx, paymentIds: string[]): Promise<Map<string, string[]>> {
  const answer = new Map<string, string[]>();
  if (paymentIds.length === 0) return answer;
  const found = rows<{ expired_payment_id: string; auction_id: string; buyer_id: string }>(
    await db.execute(sql`
      select expired_payment_id, auction_id, buyer_id from second_chance_offers
       where status in ('declined', 'expired') and expired_payment_id in (${sql.join(
         paymentIds.map((id) => sql`${id}::uuid`),
         sql`, `,
       )})`),
  );
  for (const r of found) {
    const key = `${r.expired_payment_id}:${r.auction_id}`;
    answer.set(key, [...(answer.get(key) ?? []), r.buyer_id]);
  }
  return answer;
}

/** GET /api/unpaid/expired: the expired bills in the actor's scope, with each lot's choice, runner-up and offer. */
export async function listExpired(db: Db, actor: Actor): Promise<ExpiredAnswer> {
  await syncOffers(db);
  const scope = scopeSql(paymentScope(actor));
  const bills = rows<{
    id: string;
    company_id: string;
    winner_id: string;
    winner_name: string;
    winner_whatsapp: string | null;
    grand_total: number;
    deadline_at: string | null;
    expired_at: string;
  }>(
    await db.execute(sql`
      select p.id, p.company_id, p.winner_id, p.winner_name, p.winner_whatsapp, p.grand_total, p.deadline_at, p.expired_at
        from payments p
       where p.expired_at is not null and ${scope}
         and exists (select 1 from expired_lots e where e.payment_id = p.id)
       order by p.expired_at desc
       limit 200`),
  );
  const ids = bills.map((b) => b.id);
  const lots = ids.length
    ? rows<{
        payment_id: string;
        auction_id: string;
        auction_name: string;
        amount: number;
        decision: ExpiredLotDecision | null;
        decided_at: string | null;
        company_id: string;
      }>(
        await db.execute(sql`
          select e.payment_id, e.auction_id, coalesce(pi.auction_name, a.name) as auction_name, coalesce(pi.amount, 0)::int as amount,
                 e.decision, e.decided_at, a.company_id
            from expired_lots e
            join auctions a on a.id = e.auction_id
            left join payment_items pi on pi.payment_id = e.payment_id and pi.auction_id = e.auction_id
           where e.payment_id in (${sql.join(
             ids.map((id) => sql`${id}::uuid`),
             sql`, `,
           )})
           order by e.created_at, a.name`),
      )
    : [];
  const offers = ids.length
    ? rows<{
        id: string;
        auction_id: string;
        expired_payment_id: string;
        buyer_id: string;
        buyer_name: string;
        amount: number;
        status: SecondChanceStatus;
        payment_id: string | null;
        created_at: string;
      }>(
        await db.execute(sql`
          select distinct on (o.expired_payment_id, o.auction_id) o.id, o.auction_id, o.expired_payment_id, o.buyer_id,
                 coalesce(nullif(trim(concat_ws(' ', up.first_name, up.last_name)), ''), up.display_name, u.email) as buyer_name,
                 o.amount, o.status, o.payment_id, o.created_at
            from second_chance_offers o
            join users u on u.id = o.buyer_id
            left join user_profiles up on up.user_id = o.buyer_id
           where o.expired_payment_id in (${sql.join(
             ids.map((id) => sql`${id}::uuid`),
             sql`, `,
           )})
           order by o.expired_payment_id, o.auction_id, o.created_at desc`),
      )
    : [];
  const lines = await bidLines(
    db,
    lots.map((l) => l.auction_id),
  );
  const blocks = new Set(
    rows<{ company_id: string; user_id: string }>(
      await db.execute(
        sql`select company_id, user_id from company_blocks where company_id in (${sql.join(
          [...new Set(bills.map((b) => b.company_id)), ''].map((c) => sql`${c}`),
          sql`, `,
        )})`,
      ),
    ).map((b) => `${b.company_id}:${b.user_id}`),
  );
  const passed = await passedBuyers(db, ids);
  const offerOf = new Map(offers.map((o) => [`${o.expired_payment_id}:${o.auction_id}`, o]));
  return {
    bills: bills.map(
      (b): ExpiredBillView => ({
        paymentId: b.id,
        companyId: b.company_id,
        winnerId: b.winner_id,
        winnerName: b.winner_name,
        winnerWhatsapp: b.winner_whatsapp,
        grandTotal: Number(b.grand_total),
        deadlineAt: iso(b.deadline_at),
        expiredAt: iso(b.expired_at) as string,
        lots: lots
          .filter((l) => l.payment_id === b.id)
          .map((l) => {
            const up = runnerUpOf(lines.get(l.auction_id) ?? [], b.winner_id, passed.get(`${b.id}:${l.auction_id}`) ?? []);
            const o = offerOf.get(`${b.id}:${l.auction_id}`);
            const offer: SecondChanceOfferView | null = o
              ? {
                  id: o.id,
                  buyerId: o.buyer_id,
                  buyerName: o.buyer_name,
                  amount: Number(o.amount),
                  status: o.status,
                  paymentId: o.payment_id,
                  createdAt: iso(o.created_at) as string,
                }
              : null;
            return {
              auctionId: l.auction_id,
              auctionName: l.auction_name,
              amount: Number(l.amount),
              decision: l.decision,
              decidedAt: iso(l.decided_at),
              runnerUp: up ? { ...up, blocked: blocks.has(`${l.company_id}:${up.userId}`) } : null,
              offer,
              open: mayDecide(l.decision, offer?.status ?? null),
            };
          }),
      }),
    ),
    latePayments: rows<{
      id: string;
      winner_name: string;
      grand_total: number;
      mp_payment_id: string | null;
      expired_at: string | null;
      canceled_at: string | null;
    }>(
      await db.execute(sql`
        select p.id, p.winner_name, p.grand_total, p.mp_payment_id, p.expired_at, p.canceled_at
          from payments p
         where p.payment_status = 'canceled' and p.flagged and p.provider_status = 'approved' and ${scope}
         order by p.updated_at desc
         limit 100`),
    ).map((p) => ({
      paymentId: p.id,
      winnerName: p.winner_name,
      grandTotal: Number(p.grand_total),
      mpPaymentId: p.mp_payment_id,
      expiredAt: iso(p.expired_at),
      canceledAt: iso(p.canceled_at),
    })),
  };
}

/** GET /api/unpaid/strikes: the company's buyers with strikes not lifted, or blocked for them. */
export async function listStrikes(db: Db, actor: Actor): Promise<StrikesAnswer> {
  const company = strikesCompany(actor);
  const where = company === null ? sql`true` : sql`s.company_id = ${company}`;
  const found = rows<{ company_id: string; user_id: string; name: string; strikes: number; limit: number; blocked: boolean }>(
    await db.execute(sql`
      select s.company_id, s.user_id,
             coalesce(nullif(trim(concat_ws(' ', up.first_name, up.last_name)), ''), up.display_name, u.email) as name,
             count(*)::int as strikes, coalesce(c.strike_limit, 2)::int as "limit",
             exists (select 1 from company_blocks b where b.company_id = s.company_id and b.user_id = s.user_id and b.reason = 'strikes') as blocked
        from buyer_strikes s
        join users u on u.id = s.user_id
        left join user_profiles up on up.user_id = s.user_id
        left join companies c on c.id = s.company_id
       where s.lifted_at is null and ${where}
       group by s.company_id, s.user_id, up.first_name, up.last_name, up.display_name, u.email, c.strike_limit
       order by blocked desc, strikes desc, name
       limit 500`),
  );
  return {
    buyers: found.map((r) => ({
      companyId: r.company_id,
      userId: r.user_id,
      name: r.name,
      strikes: Number(r.strikes),
      limit: Number(r.limit),
      blocked: Boolean(r.blocked),
    })),
  };
}

/**
 * When a pending bill expires (domain/unpaid.ts billExpiresAt, in SQL): at its deadline, or
 * CASH_PAYMENT_GRACE_HOURS later while a payment is under way with the provider.
 */
export function billExpiresAtSql(deadlineAt: SQL, providerStatus: SQL): SQL {
  const underway = sql.join(
    PAYMENT_UNDERWAY_STATUSES.map((s) => sql`${s}`),
    sql`, `,
  );
  return sql`(${deadlineAt} + case when ${providerStatus} in (${underway}) then make_interval(hours => ${CASH_PAYMENT_GRACE_HOURS}) else interval '0' end)`;
}

/** GET /api/me/unpaid: the buyer's overdue bills with this company, strikes and block. */
export async function myUnpaid(db: Db, opts: { userId: string; companyId: string }): Promise<MyUnpaidAnswer> {
  const [r] = rows<{ overdue: number; strikes: number; limit: number | null; blocked: boolean }>(
    await db.execute(sql`
      select
        (select count(*)::int from payments p
          where p.winner_id = ${opts.userId}::uuid and p.company_id = ${opts.companyId}
            and ((p.payment_status = 'pending' and ${billExpiresAtSql(sql`p.deadline_at`, sql`p.provider_status`)} <= now())
                 or (p.payment_status = 'canceled' and p.expired_at is not null
                     and not exists (select 1 from second_chance_offers o where o.payment_id = p.id)
                     and exists (select 1 from buyer_strikes s where s.payment_id = p.id and s.lifted_at is null)))) as overdue,
        (select count(*)::int from buyer_strikes s where s.user_id = ${opts.userId}::uuid and s.company_id = ${opts.companyId} and s.lifted_at is null) as strikes,
        (select strike_limit from companies where id = ${opts.companyId}) as "limit",
        exists (select 1 from company_blocks b where b.company_id = ${opts.companyId} and b.user_id = ${opts.userId}::uuid) as blocked`),
  );
  return { overdue: Number(r?.overdue ?? 0), strikes: Number(r?.strikes ?? 0), limit: Number(r?.limit ?? 2), blocked: Boolean(r?.blocked) };
}

/** The company of an auction, or null. */
export async function companyOfAuction(db: Db | Tx, auctionId: string): Promise<string | null> {
  const [r] = rows<{ company_id: string }>(await db.execute(sql`select company_id from auctions where id = ${auctionId}::uuid`));
  return r?.company_id ?? null;
}

/** The buyer's pages follow a block or its lifting (the chat's standing event, which the bid panel hears too). */
export function standingChanged(companyId: string, userId: string, isBlocked: boolean): DomainEvent {
  return { type: 'chatStandingChanged', userId, standing: { sessionId: null, companyId, isBlocked } };
}
