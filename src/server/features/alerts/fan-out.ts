import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { ALERT_PUSH_TTL_MS, SOON_BEFORE_MS, showAlertText } from '../../../domain/alerts.js';
import { livePath } from '../../../domain/live-public.js';
import { type BulkPacer, unpaced } from '../../bulk-pacer.js';
import { type Db, rows, type Tx } from '../../db/connect.js';
import { type PassLoop, startPassLoop } from '../../pass-loop.js';
import { companyNames } from '../../reads/companies.js';
import type { DomainEvent } from '../../realtime/publisher.js';
import { unreadCounts } from './bell.js';

/**
 * The go-live fan-out (the `show-alerts` job). A show is told to its audience once, whichever
 * instance sees it first and however often they restart:
 *
 * 1. Each pass notes what is due as `show_alerts` rows (primary key: show and kind, inserted with
 *    ON CONFLICT DO NOTHING): 'live' for a show that is on (not a rehearsal), 'soon' for a
 *    scheduled show with bookmarks within 15 minutes of its time (never once it is live).
 * 2. Each row not yet fanned out is taken under FOR UPDATE SKIP LOCKED (another instance skips
 *    it) and served a batch at a time, walking the audience in user id order from the row's
 *    `served_through`: one statement takes the next BATCH users, writes their notifications (ON
 *    CONFLICT on the once-per-user-and-show key) and, for each new one, a push delivery per
 *    subscription of that user, which the push sender takes from its queue, and moves
 *    `served_through` past them. Each batch costs the same however far the walk has gone (asking
 *    instead for "the audience minus those already notified" grew with every batch, and the
 *    database's time went to it while the show's bids waited). A crash between batches loses
 *    nothing: the cursor and the notifications commit together.
 * 3. When a batch comes up short, the row is marked fanned out.
 *
 * 'live' goes to the seller's followers and the show's bookmarkers, 'soon' to its bookmarkers, never
 * to the seller, a simulated bidder, or a buyer the show's company blocked. Going live never waits
 * for this: the status change only changes the session's row. No WhatsApp is sent: a go-live
 * template is a paid marketing message.
 */

/** How long the job sleeps when nothing is left to fan out: a show's alert leaves within about this. */
export const SHOW_ALERTS_EVERY_MS = 2000;
/** Users per statement: each some tens of milliseconds of the database's time, taken through the bulk pacer. */
export const BATCH = 250;
/** A pass gives up the loop after this long with work left, and the next pass starts at once (a new show is noticed meanwhile). */
const PASS_BUDGET_MS = 2000;

type AlertKind = 'live' | 'soon';

/**
 * Notes the alerts that fell due (each once, ever). A show left 'live' untouched for half a day (a
 * seller who never pressed Terminar, found by a first start of this job) is not announced: it is
 * not news.
 */
export async function noteDueAlerts(db: Db): Promise<void> {
  await db.execute(sql`
    insert into show_alerts (session_id, kind)
    select s.id, 'live' from live_sessions s
    where s.status in ('live', 'paused') and not s.rehearsal
      and s.updated_at > now() - interval '12 hours'
      and not exists (select 1 from show_alerts a where a.session_id = s.id and a.kind = 'live')
    on conflict do nothing`);
  // A show already live (or with its 'live' alert) gets no 'soon'; a late start still does, for a while.
  await db.execute(sql`
    insert into show_alerts (session_id, kind)
    select s.id, 'soon' from live_sessions s
    where s.status = 'scheduled' and not s.rehearsal
      and s.scheduled_at <= now() + ${SOON_BEFORE_MS}::int * interval '1 millisecond'
      and s.scheduled_at > now() - ${SOON_BEFORE_MS}::int * interval '1 millisecond'
      and exists (select 1 from session_reminders r where r.session_id = s.id)
      and not exists (select 1 from show_alerts a where a.session_id = s.id)
    on conflict do nothing`);
}

interface TakenAlert {
  session_id: string;
  kind: AlertKind;
  status: string;
  rehearsal: boolean;
  title: string;
  seller_id: string;
  company_id: string;
  seller_slug: string;
  scheduled_at: string | Date;
  served_through: string | null;
}

export interface BatchResult {
  /** 'locked': another instance holds the alert; 'done': it is fanned out; 'more': users are left. */
  state: 'locked' | 'done' | 'more';
  /** Users notified in this batch. */
  notified: number;
  /** Push deliveries queued in this batch. */
  pushes: number;
  events: DomainEvent[];
}

/** Serves one batch of one alert, in one transaction. */
export async function fanOutBatch(db: Db, alert: { sessionId: string; kind: AlertKind }): Promise<BatchResult> {
  return db.transaction(async (tx) => {
    const [taken] = rows<TakenAlert>(
      await tx.execute(sql`
        select a.session_id, a.kind, a.served_through, s.status, s.rehearsal, s.title, s.seller_id, s.company_id, s.seller_slug, s.scheduled_at
        from show_alerts a join live_sessions s on s.id = a.session_id
        where a.session_id = ${alert.sessionId}::uuid and a.kind = ${alert.kind} and a.fanned_out_at is null
        for update of a skip locked`),
    );
    if (!taken) return { state: 'locked', notified: 0, pushes: 0, events: [] };
    // A show that ended before its turn, or went live before its 'soon' did: saying it now would be wrong.
    const stale = taken.rehearsal || (taken.kind === 'live' ? taken.status === 'ended' : taken.status !== 'scheduled');
    if (stale) {
      await markDone(tx, alert);
      return { state: 'done', notified: 0, pushes: 0, events: [] };
    }
    const batch = await notifyBatch(tx, taken);
    const counts = await unreadCounts(tx, batch.users);
    const done = batch.walked < BATCH;
    if (done) await markDone(tx, alert);
    return {
      state: done ? 'done' : 'more',
      notified: batch.users.length,
      pushes: batch.pushes,
      events: counts.length ? [{ type: 'notificationsChanged', unread: counts }] : [],
    };
  });
}

async function markDone(tx: Tx, alert: { sessionId: string; kind: AlertKind }): Promise<void> {
  await tx.execute(sql`update show_alerts set fanned_out_at = now() where session_id = ${alert.sessionId}::uuid and kind = ${alert.kind}`);
}

/**
 * One statement: the next BATCH of the audience after the cursor (in user id order, walked on the
 * (seller, follower) and (session, user) indexes), the notifications of those who may be told, a
 * push delivery per subscription of each new one, and the cursor moved past the batch.
 */
async function notifyBatch(tx: Tx, show: TakenAlert): Promise<{ walked: number; pushes: number; users: string[] }> {
  const sellerName = (await companyNames(tx, [show.company_id])).get(show.company_id) ?? show.company_id;
  const text = showAlertText(show.kind, { title: show.title, sellerName, scheduledAt: new Date(show.scheduled_at).getTime() });
  const url = livePath({ id: show.session_id, sellerSlug: show.seller_slug });
  const kind = show.kind === 'live' ? 'show_live' : 'show_soon';
  const after = show.served_through;
  const followers =
    show.kind === 'live'
      ? sql`(select f.follower_id as user_id from seller_follows f
          where f.seller_id = ${show.seller_id}::uuid and (${after}::uuid is null or f.follower_id > ${after}::uuid)
          order by f.follower_id limit ${BATCH}) union`
      : sql``;
  const [result] = rows<{ walked: number; pushes: number; users: string[] | string }>(
    await tx.execute(sql`
      with walked as (
        select user_id from (
          ${followers}
          (select r.user_id from session_reminders r
            where r.session_id = ${show.session_id}::uuid and (${after}::uuid is null or r.user_id > ${after}::uuid)
            order by r.user_id limit ${BATCH})
        ) audience
        order by user_id limit ${BATCH}
      ),
      todo as (
        select w.user_id from walked w join users u on u.id = w.user_id
        where not u.is_simulated and w.user_id <> ${show.seller_id}::uuid
          and not exists (select 1 from company_blocks b where b.company_id = ${show.company_id} and b.user_id = w.user_id)
      ),
      inserted as (
        insert into notifications (user_id, kind, title, body, url, session_id)
        select t.user_id, ${kind}::text, ${text.title}::text, ${text.body}::text, ${url}::text, ${show.session_id}::uuid from todo t
        on conflict (user_id, kind, session_id) do nothing
        returning id, user_id
      ),
      pushed as (
        insert into push_deliveries (notification_id, subscription_id, expires_at)
        select i.id, p.id, now() + ${ALERT_PUSH_TTL_MS}::int * interval '1 millisecond'
        from inserted i join push_subscriptions p on p.user_id = i.user_id
        on conflict (notification_id, subscription_id) do nothing
        returning id
      ),
      moved as (
        update show_alerts set served_through = (select user_id from walked order by user_id desc limit 1)
        where session_id = ${show.session_id}::uuid and kind = ${show.kind} and exists (select 1 from walked)
      )
      select (select count(*)::int from walked) as walked, (select count(*)::int from pushed) as pushes,
        coalesce((select json_agg(i.user_id) from inserted i), '[]'::json) as users`),
  );
  const users = typeof result?.users === 'string' ? (JSON.parse(result.users) as string[]) : (result?.users ?? []);
  return { walked: Number(result?.walked ?? 0), pushes: Number(result?.pushes ?? 0), users };
}

export interface PassResult {
  notified: number;
  pushes: number;
  /** Work is left that this pass did not reach (its time ran out). */
  remaining: boolean;
}

/** One pass: notes what fell due, then fans out what is waiting, publishing each batch's bell events after its commit. */
export async function showAlertsPass(
  db: Db,
  opts: {
    publish: (events: DomainEvent[]) => Promise<void>;
    isStopped?: () => boolean;
    budgetMs?: number;
    /** Paces the batches with the instance's other bulk work (bulk-pacer.ts); unpaced when not given. */
    bulk?: BulkPacer;
  },
): Promise<PassResult> {
  const bulk = opts.bulk ?? unpaced;
  await noteDueAlerts(db);
  const waiting = rows<{ session_id: string; kind: AlertKind }>(
    await db.execute(sql`select session_id, kind from show_alerts where fanned_out_at is null order by created_at, session_id, kind limit 50`),
  );
  const started = Date.now();
  const budget = opts.budgetMs ?? PASS_BUDGET_MS;
  const result: PassResult = { notified: 0, pushes: 0, remaining: waiting.length === 50 };
  for (const alert of waiting) {
    for (;;) {
      if (opts.isStopped?.() || Date.now() - started > budget) return { ...result, remaining: true };
      const batch = await bulk.run(() => fanOutBatch(db, { sessionId: alert.session_id, kind: alert.kind }));
      result.notified += batch.notified;
      result.pushes += batch.pushes;
      if (batch.events.length) await opts.publish(batch.events);
      if (batch.state !== 'more') break;
    }
  }
  return result;
}

/** The `show-alerts` job: a pass every SHOW_ALERTS_EVERY_MS, at once again while work is left. */
export function startShowAlerts(deps: { db: Db; log: FastifyBaseLogger; publish: (events: DomainEvent[]) => Promise<void>; bulk: BulkPacer }): PassLoop {
  return startPassLoop({
    name: 'show alerts',
    log: deps.log,
    retryMs: 5000,
    async pass(isStopped) {
      const result = await showAlertsPass(deps.db, { publish: deps.publish, isStopped, bulk: deps.bulk });
      return result.remaining ? 0 : SHOW_ALERTS_EVERY_MS;
    },
  });
}
