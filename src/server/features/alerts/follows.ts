import { sql } from 'drizzle-orm';
import type { FollowAnswer, ReminderAnswer } from '../../../domain/alerts.js';
import { isUuid } from '../../../domain/ids.js';
import { recordAudit } from '../../audit.js';
import { type Db, rows, type Tx } from '../../db/connect.js';
import { AppError } from '../../http/errors.js';
import type { Acting } from '../../http/request-context.js';
import { messages } from '../../messages.js';

/**
 * Following a seller and 'Avísame' on a show: each is one row keyed by the buyer and the seller (or
 * the show), so a repeat (a double tap, a retry) changes nothing and answers the same. The audit log
 * records the changes, not the repeats.
 */

const sellerNotFound = () => new AppError('NOT_FOUND', messages.alerts.sellerNotFound);
const showNotFound = () => new AppError('NOT_FOUND', messages.alerts.showNotFound);

/**
 * A seller one may follow: a real account with the seller role, or one who has run a show (a
 * company admin selling). Simulated bidders and plain buyers are no sellers.
 */
async function isSeller(db: Db | Tx, userId: string): Promise<boolean> {
  const [row] = rows<{ ok: boolean }>(
    await db.execute(sql`
      select true as ok from user_profiles p join users u on u.id = p.user_id
      where p.user_id = ${userId}::uuid and not u.is_simulated
        and ('seller' = any(p.roles) or exists (select 1 from live_sessions s where s.seller_id = p.user_id and not s.rehearsal))`),
  );
  return Boolean(row?.ok);
}

async function followers(db: Db | Tx, sellerId: string): Promise<number> {
  const [row] = rows<{ n: number }>(await db.execute(sql`select count(*)::int as n from seller_follows where seller_id = ${sellerId}::uuid`));
  return Number(row?.n ?? 0);
}

/** POST /api/sellers/{id}/follow */
export async function followSeller(db: Db, opts: Acting<{ id: string }> & { sellerId: string }): Promise<FollowAnswer> {
  if (!isUuid(opts.sellerId)) throw sellerNotFound();
  const sellerId = opts.sellerId.toLowerCase();
  return db.transaction(async (tx) => {
    if (!(await isSeller(tx, sellerId))) throw sellerNotFound();
    if (sellerId === opts.actor.id) throw new AppError('VALIDATION', messages.alerts.followSelf);
    const made = rows<{ seller_id: string }>(
      await tx.execute(sql`
        insert into seller_follows (follower_id, seller_id) values (${opts.actor.id}::uuid, ${sellerId}::uuid)
        on conflict do nothing returning seller_id`),
    );
    if (made.length) {
      await recordAudit(tx, { by: opts, action: 'seller.follow', entityType: 'user', entityId: sellerId, after: { followerId: opts.actor.id } });
    }
    return { following: true, followers: await followers(tx, sellerId) };
  });
}

/** DELETE /api/sellers/{id}/follow: also for a seller who stopped selling (their followers may still leave). */
export async function unfollowSeller(db: Db, opts: Acting<{ id: string }> & { sellerId: string }): Promise<FollowAnswer> {
  if (!isUuid(opts.sellerId)) throw sellerNotFound();
  const sellerId = opts.sellerId.toLowerCase();
  return db.transaction(async (tx) => {
    const gone = rows<{ seller_id: string }>(
      await tx.execute(sql`delete from seller_follows where follower_id = ${opts.actor.id}::uuid and seller_id = ${sellerId}::uuid returning seller_id`),
    );
    if (gone.length) {
      await recordAudit(tx, { by: opts, action: 'seller.unfollow', entityType: 'user', entityId: sellerId, before: { followerId: opts.actor.id } });
    } else if (!(await isSeller(tx, sellerId))) {
      throw sellerNotFound();
    }
    return { following: false, followers: await followers(tx, sellerId) };
  });
}

/** The show 'Avísame' is about: unknown and rehearsal shows are not found (a rehearsal is never public). */
async function publicShow(tx: Tx, sessionId: string): Promise<{ id: string; status: string }> {
  if (!isUuid(sessionId)) throw showNotFound();
  const [show] = rows<{ id: string; status: string }>(
    await tx.execute(sql`select id, status from live_sessions where id = ${sessionId.toLowerCase()}::uuid and not rehearsal`),
  );
  if (!show) throw showNotFound();
  return show;
}

/** POST /api/live-sessions/{id}/reminder ('Avísame'): a scheduled or running show; an ended one is refused. */
export async function remindShow(db: Db, opts: Acting<{ id: string }> & { sessionId: string }): Promise<ReminderAnswer> {
  return db.transaction(async (tx) => {
    const show = await publicShow(tx, opts.sessionId);
    if (show.status === 'ended') throw new AppError('CONFLICT', messages.alerts.showEnded);
    const made = rows<{ session_id: string }>(
      await tx.execute(sql`
        insert into session_reminders (user_id, session_id) values (${opts.actor.id}::uuid, ${show.id}::uuid)
        on conflict do nothing returning session_id`),
    );
    if (made.length) {
      await recordAudit(tx, { by: opts, action: 'live_session.remind', entityType: 'live_session', entityId: show.id, after: { userId: opts.actor.id } });
    }
    return { reminded: true };
  });
}

/** DELETE /api/live-sessions/{id}/reminder: takes the bookmark back (of an ended show too). */
export async function unremindShow(db: Db, opts: Acting<{ id: string }> & { sessionId: string }): Promise<ReminderAnswer> {
  return db.transaction(async (tx) => {
    const show = await publicShow(tx, opts.sessionId);
    const gone = rows<{ session_id: string }>(
      await tx.execute(sql`delete from session_reminders where user_id = ${opts.actor.id}::uuid and session_id = ${show.id}::uuid returning session_id`),
    );
    if (gone.length) {
      await recordAudit(tx, { by: opts, action: 'live_session.unremind', entityType: 'live_session', entityId: show.id, before: { userId: opts.actor.id } });
    }
    return { reminded: false };
  });
}
