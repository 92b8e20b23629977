import { sql } from 'drizzle-orm';
import { type Db, rows } from '../../../db/connect.js';
import { companyNames } from '../../../reads/companies.js';
import { onBlockHereSql } from '../../../reads/lot-runs.js';
import { realSale } from '../../../reads/real-sale.js';

/**
 * The reads of 'Mis compras'. Every query is keyed by the buyer's own id (payments.winner_id,
 * auctions.current_winner_id, second_chance_offers.buyer_id): nothing of another buyer's is read.
 */

/** Most bills, won lots and offers one page lists (a buyer's lifetime; far above what a person wins). */
const MAX_ROWS = 500;

/** Epoch milliseconds of a timestamptz, or null (raw rows carry numbers, not driver-dependent dates). */
const epochMs = (column: string) => sql.raw(`(extract(epoch from ${column}) * 1000)::float8`);

/**
 * The show an auction was sold in: the lot of it, in a show that is not a rehearsal, that was on the
 * block there and last (live/lot-runs.ts). An auction that closed on its own while its lot waited in
 * a queue was sold outside any show: null.
 */
const showOf = (auctionId: string) =>
  sql`(select l.session_id from live_lots l join live_sessions s on s.id = l.session_id
     where l.auction_id = ${sql.raw(auctionId)} and not s.rehearsal
       and ${onBlockHereSql({ id: sql`l.id`, sessionId: sql`l.session_id`, auctionId: sql`l.auction_id` })}
     limit 1)`;

export interface BillRow {
  id: string;
  company_id: string;
  company_name: string | null;
  session_id: string | null;
  payment_status: string;
  provider_status: string | null;
  total_amount: number;
  shipping_carrier: string | null;
  shipping_cost: number;
  payment_link: string | null;
  deadline_at: number | null;
  link_expires_at: number | null;
  expired_at: number | null;
  paid_at: number | null;
  created_at: number;
}

export interface ItemRow {
  payment_id: string;
  auction_id: string;
  auction_name: string;
  amount: number;
}

export interface WonRow {
  id: string;
  name: string;
  amount: number;
  company_id: string;
  session_id: string | null;
  end_time: number | null;
}

export interface OfferRow {
  id: string;
  auction_id: string;
  auction_name: string;
  amount: number;
  company_id: string;
  session_id: string | null;
  payment_id: string | null;
  created_at: number;
}

export interface SessionRow {
  id: string;
  title: string;
  scheduled_at: number;
  whatsapp_link: string | null;
}

export interface PurchaseRows {
  bills: BillRow[];
  items: ItemRow[];
  won: WonRow[];
  offers: OfferRow[];
  sessions: Map<string, SessionRow>;
  companyNames: Map<string, string>;
  /** Per company, the WhatsApp link of its newest show that has one. */
  whatsappLinks: Map<string, string>;
}

/** Everything 'Mis compras' shows for `userId`, read in a few queries. */
export async function readPurchases(db: Db, userId: string): Promise<PurchaseRows> {
  // Bills the buyer was sent: pending, paid, or canceled because their deadline passed. A draft is the
  // seller's work in progress, and a bill the seller canceled gives its lots back to billing.
  const bills = rows<BillRow>(
    await db.execute(sql`
      select p.id, p.company_id, p.company_name, p.payment_status, p.provider_status, p.total_amount, p.shipping_carrier, p.shipping_cost, p.payment_link,
        ${epochMs('p.deadline_at')} as deadline_at, ${epochMs('p.link_expires_at')} as link_expires_at,
        ${epochMs('p.expired_at')} as expired_at, ${epochMs('p.paid_at')} as paid_at, ${epochMs('p.created_at')} as created_at,
        coalesce((select s.id from live_sessions s where s.id = p.session_id and not s.rehearsal),
                 (select ${showOf('i.auction_id')} from payment_items i where i.payment_id = p.id order by i.created_at limit 1)) as session_id
      from payments p
      where p.winner_id = ${userId}::uuid
        and (p.payment_status in ('pending', 'paid') or (p.payment_status = 'canceled' and p.expired_at is not null))
      order by p.created_at desc
      limit ${MAX_ROWS}`),
  );
  const items =
    bills.length === 0
      ? []
      : rows<ItemRow>(
          await db.execute(sql`
            select i.payment_id, i.auction_id, i.auction_name, i.amount from payment_items i
            where i.payment_id in (${sql.join(
              bills.map((b) => sql`${b.id}::uuid`),
              sql`, `,
            )})
            order by i.created_at, i.auction_name`),
        );
  // Lots the buyer won, as the auction closed (a rehearsal's lot is no sale: live/sessions/rehearsal-snapshot.ts).
  const won = rows<WonRow>(
    await db.execute(sql`
      select a.id, a.name, coalesce(a.current_price, 0) as amount, a.company_id, ${showOf('a.id')} as session_id, ${epochMs('a.end_time')} as end_time
      from auctions a
      where a.current_winner_id = ${userId}::uuid and a.status = 'ended' and ${realSale({ auctionId: sql.raw('a.id'), winnerId: sql.raw('a.current_winner_id') })}
      order by a.end_time desc nulls last, a.id
      limit ${MAX_ROWS}`),
  );
  const offers = rows<OfferRow>(
    await db.execute(sql`
      select o.id, o.auction_id, a.name as auction_name, o.amount, a.company_id, ${showOf('a.id')} as session_id,
        -- Its bill only when it is this buyer's.
        (select p.id from payments p where p.id = o.payment_id and p.winner_id = ${userId}::uuid) as payment_id,
        ${epochMs('o.created_at')} as created_at
      from second_chance_offers o join auctions a on a.id = o.auction_id
      where o.buyer_id = ${userId}::uuid and o.status = 'offered'
      order by o.created_at desc
      limit ${MAX_ROWS}`),
  );

  const sessionIds = [...new Set([...bills, ...won, ...offers].map((r) => r.session_id).filter((id): id is string => id !== null))];
  const sessions = new Map<string, SessionRow>();
  if (sessionIds.length > 0) {
    const found = rows<SessionRow>(
      await db.execute(sql`
        select s.id, s.title, ${epochMs('s.scheduled_at')} as scheduled_at, s.whatsapp_link from live_sessions s
        where s.id in (${sql.join(
          sessionIds.map((id) => sql`${id}::uuid`),
          sql`, `,
        )})`),
    );
    for (const s of found) sessions.set(s.id, s);
  }

  const companyIds = [...new Set([...bills, ...won, ...offers].map((r) => r.company_id))];
  const whatsappLinks = new Map<string, string>();
  if (companyIds.length > 0) {
    const links = rows<{ company_id: string; whatsapp_link: string }>(
      await db.execute(sql`
        select distinct on (s.company_id) s.company_id, s.whatsapp_link from live_sessions s
        where s.company_id in (${sql.join(
          companyIds.map((id) => sql`${id}`),
          sql`, `,
        )}) and s.whatsapp_link is not null and not s.rehearsal
        order by s.company_id, s.scheduled_at desc`),
    );
    for (const l of links) whatsappLinks.set(l.company_id, l.whatsapp_link);
  }

  return { bills, items, won, offers, sessions, companyNames: await companyNames(db, companyIds), whatsappLinks };
}
