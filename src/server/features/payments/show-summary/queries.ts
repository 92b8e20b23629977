import { eq, sql } from 'drizzle-orm';
import { maskName } from '../../../../domain/bidding.js';
import { isUuid } from '../../../../domain/ids.js';
import {
  buyerPaymentState,
  downsampleViewers,
  type LotBand,
  type ShowSummary,
  type ShowSummaryBuyer,
  type ShowSummaryLot,
  type SummaryLotStatus,
  type SummaryPaymentState,
  type ViewerPoint,
} from '../../../../domain/show-summary.js';
import { type Db, rows } from '../../../db/connect.js';
import { liveSessions } from '../../../db/schema.js';
import { canEditSession } from '../../../policies/live-sessions.js';
import { isInScope, type ScopedActor, sessionScope } from '../../../policies/scope.js';
import { onBlockHereSql } from '../../../reads/lot-runs.js';
import { simulatedWinner } from '../../../reads/real-sale.js';
import { sessionNotFound } from '../../../reads/sessions.js';

/** The viewers chart never gets more points than this (a long show is merged, keeping each bucket's peak). */
const MAX_CHART_POINTS = 720;

type SessionRow = typeof liveSessions.$inferSelect;

/**
 * Who reads a show's summary: whoever sees the session in the panel's list (SPEC §6's "Live sessions
 * listed": its seller, the company's admins and sellers, platform admins); anyone else gets
 * 'Sesión no encontrada' (404) as for a session that does not exist. Buyers' names and WhatsApp
 * are the seller's side's alone (canEditSession); a co-seller reads them masked.
 */
export async function readSummarySession(db: Db, id: string, actor: ScopedActor): Promise<{ row: SessionRow; masked: boolean }> {
  if (!isUuid(id)) throw sessionNotFound();
  const [row] = await db.select().from(liveSessions).where(eq(liveSessions.id, id.toLowerCase()));
  if (!row) throw sessionNotFound();
  if (canEditSession(actor, row)) return { row, masked: false };
  if (isInScope(sessionScope(actor), row)) return { row, masked: true };
  throw sessionNotFound();
}

interface LotRecord {
  lot_id: string;
  order: number;
  lot_status: string;
  auction_id: string;
  name: string;
  starting_price: number;
  current_price: number | null;
  auction_status: string;
  running: boolean;
  winner_id: string | null;
  winner_name: string | null;
  winner_whatsapp: string | null;
  winner_simulated: boolean | null;
  profile_name: string | null;
  profile_whatsapp: string | null;
  bid_count: number;
  held_status: string | null;
  expired: boolean;
  offered: boolean;
}

const lotStatusOf = (r: LotRecord): SummaryLotStatus => {
  // Only a lot that was on the block sells in the show: one whose auction closed while it waited did so outside it.
  if (r.auction_status === 'ended' && !r.offered) return 'notOffered';
  if (r.auction_status === 'ended') return r.winner_id && r.current_price !== null ? 'sold' : 'unsold';
  // An online auction running on its own clock while its lot waits is not on the block yet.
  if (r.running) return r.offered ? 'live' : 'queued';
  return r.lot_status === 'queued' ? 'queued' : 'unsold';
};

const paymentStateOf = (r: LotRecord): SummaryPaymentState => {
  if (r.held_status === 'paid') return 'paid';
  if (r.held_status === 'pending') return 'linkSent';
  if (r.held_status === 'draft') return 'draft';
  return r.expired ? 'expired' : 'unbilled';
};

async function readLots(db: Db, sessionId: string): Promise<LotRecord[]> {
  return rows<LotRecord>(
    await db.execute(sql`
      select l.id as lot_id, l."order", l.status as lot_status, a.id as auction_id, a.name,
             a.starting_price, a.current_price, a.status as auction_status,
             (a.status in ('live', 'active') and a.end_time is not null and a.end_time > clock_timestamp()) as running,
             a.current_winner_id as winner_id, a.current_winner_name as winner_name, a.winner_whatsapp,
             ${simulatedWinner(sql`a.current_winner_id`)} as winner_simulated,
             nullif(trim(coalesce(p.display_name, concat_ws(' ', p.first_name, p.last_name))), '') as profile_name,
             p.whatsapp as profile_whatsapp, a.bid_count,
             hold.payment_status as held_status,
             exists (select 1 from payment_items xi join payments xp on xp.id = xi.payment_id
                     where xi.auction_id = a.id and xp.expired_at is not null) as expired,
             ${onBlockHereSql({ id: sql`l.id`, sessionId: sql`l.session_id`, auctionId: sql`l.auction_id` })} as offered
      from live_lots l
      join auctions a on a.id = l.auction_id
      left join user_profiles p on p.user_id = a.current_winner_id
      left join lateral (select pi.payment_status from payment_items pi
                         where pi.auction_id = a.id and pi.payment_status in ('draft', 'pending', 'paid') limit 1) hold on true
      where l.session_id = ${sessionId}::uuid
      order by l."order"`),
  ).map((r) => ({
    ...r,
    order: Number(r.order),
    starting_price: Number(r.starting_price),
    current_price: r.current_price === null ? null : Number(r.current_price),
    bid_count: Number(r.bid_count),
    offered: Boolean(r.offered),
  }));
}

async function readViewers(db: Db, sessionId: string): Promise<ViewerPoint[]> {
  return rows<{ at: string | number; viewers: number }>(
    await db.execute(sql`
      select floor(extract(epoch from at) * 1000)::bigint as at, viewers
      from live_viewer_samples where session_id = ${sessionId}::uuid order by at`),
  ).map((r) => ({ at: Number(r.at), viewers: Number(r.viewers) }));
}

/** Each run of a lot on the block; a run left open ends at its auction's end once that has passed. */
async function readBands(db: Db, sessionId: string): Promise<LotBand[]> {
  return rows<{ lot_id: string; name: string; opened_at: string | number; closed_at: string | number | null }>(
    await db.execute(sql`
      select lot_id, name, floor(extract(epoch from opened_at) * 1000)::bigint as opened_at,
             -- greatest() skips a null: a run still going stays null.
             floor(extract(epoch from case when ends is null then null else greatest(opened_at, ends) end) * 1000)::bigint as closed_at
      from (select r.lot_id, a.name, r.opened_at,
                   coalesce(r.closed_at, case when a.status = 'ended' or a.end_time <= clock_timestamp() then coalesce(a.end_time, a.closed_at) end) as ends
            from live_lot_runs r
            join auctions a on a.id = r.auction_id
            where r.session_id = ${sessionId}::uuid) runs
      order by opened_at`),
  ).map((r) => ({ lotId: r.lot_id, name: r.name, openedAt: Number(r.opened_at), closedAt: r.closed_at === null ? null : Number(r.closed_at) }));
}

/** GET /api/live-sessions/{id}/summary, for a session already read through readSummarySession. */
export async function readShowSummary(db: Db, session: { row: SessionRow; masked: boolean }): Promise<ShowSummary> {
  const { row, masked } = session;
  const [lots, samples, lotBands] = [await readLots(db, row.id), await readViewers(db, row.id), await readBands(db, row.id)];
  const [now] = rows<{ now: string | number }>(await db.execute(sql`select (extract(epoch from clock_timestamp()) * 1000)::bigint as now`));

  const lotRows: ShowSummaryLot[] = [];
  const buyers = new Map<string, ShowSummaryBuyer & { states: SummaryPaymentState[] }>();
  let grossSold = 0;
  let startingOfSold = 0;
  let lotsSold = 0;
  let lotsUnsold = 0;
  let paidAmount = 0;
  for (const r of lots) {
    const status = lotStatusOf(r);
    const sold = status === 'sold';
    const finalPrice = sold ? r.current_price : null;
    const fullName = r.winner_name ?? r.profile_name ?? '';
    lotRows.push({
      lotId: r.lot_id,
      order: r.order,
      auctionId: r.auction_id,
      name: r.name,
      startingPrice: r.starting_price,
      finalPrice,
      winnerName: sold ? (masked ? maskName(fullName) : fullName) : null,
      status,
      bids: r.bid_count,
    });
    if (status === 'unsold') lotsUnsold++;
    if (!sold || finalPrice === null || !r.winner_id) continue;
    lotsSold++;
    grossSold += finalPrice;
    startingOfSold += r.starting_price;
    const state = paymentStateOf(r);
    if (state === 'paid') paidAmount += finalPrice;
    // A rehearsal's simulated bidders win lots but are nobody to bill.
    if (r.winner_simulated) continue;
    let buyer = buyers.get(r.winner_id);
    if (!buyer) {
      buyer = {
        buyerId: masked ? null : r.winner_id,
        name: masked ? maskName(fullName) : fullName,
        whatsapp: masked ? null : (r.winner_whatsapp ?? r.profile_whatsapp),
        lots: [],
        total: 0,
        paymentState: 'unbilled',
        states: [],
      };
      buyers.set(r.winner_id, buyer);
    }
    buyer.lots.push({ auctionId: r.auction_id, name: r.name, amount: finalPrice, paymentState: state });
    buyer.total += finalPrice;
    buyer.states.push(state);
  }

  const viewerCounts = samples.map((s) => s.viewers);
  const buyerRows = [...buyers.values()]
    .map(({ states, ...b }) => ({ ...b, paymentState: buyerPaymentState(states) }))
    .sort((a, b) => b.total - a.total || a.name.localeCompare(b.name, 'es'));
  return {
    sessionId: row.id,
    title: row.title,
    status: row.status,
    rehearsal: row.rehearsal,
    masked,
    totals: {
      grossSold,
      lotsSold,
      lotsUnsold,
      buyers: buyerRows.length,
      averageSale: lotsSold ? Math.round(grossSold / lotsSold) : 0,
      averageStartingPrice: lotsSold ? Math.round(startingOfSold / lotsSold) : 0,
      saleToStartRatio: lotsSold && startingOfSold > 0 ? Math.round((grossSold / startingOfSold) * 100) / 100 : null,
      peakViewers: viewerCounts.reduce((a, b) => Math.max(a, b), 0),
      averageViewers: viewerCounts.length ? Math.round(viewerCounts.reduce((a, b) => a + b, 0) / viewerCounts.length) : 0,
      paidAmount,
      unpaidAmount: grossSold - paidAmount,
    },
    lots: lotRows,
    buyers: buyerRows,
    series: {
      viewers: downsampleViewers(samples, MAX_CHART_POINTS),
      lotBands,
      prices: lotRows.map((l) => ({ lotId: l.lotId, name: l.name, startingPrice: l.startingPrice, finalPrice: l.finalPrice })),
    },
    serverNow: Number(now?.now ?? Date.now()),
  };
}
