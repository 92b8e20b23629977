import { and, count, desc, eq, inArray, isNull } from 'drizzle-orm';
import {
  BELL_LIMIT,
  type NotificationItem,
  type NotificationKind,
  type NotificationsAnswer,
  type ReadAnswer,
  type ReadNotificationsInput,
} from '../../../domain/alerts.js';
import type { Db, Tx } from '../../db/connect.js';
import { notifications } from '../../db/schema.js';
import type { Acting } from '../../http/request-context.js';
import type { DomainEvent } from '../../realtime/publisher.js';

/**
 * The in-app bell: a user's own notifications, newest first, and their unread count. Every change
 * returns a `notificationsChanged` event, so the user's open pages set their badge without polling.
 */

type NotificationRow = typeof notifications.$inferSelect;

function present(row: NotificationRow): NotificationItem {
  return {
    id: row.id,
    kind: row.kind,
    title: row.title,
    body: row.body,
    url: row.url,
    createdAt: row.createdAt.getTime(),
    readAt: row.readAt ? row.readAt.getTime() : null,
  };
}

/** Each user's count of unread notifications (users with none are answered 0). */
export async function unreadCounts(db: Db | Tx, userIds: readonly string[]): Promise<{ userId: string; unread: number }[]> {
  const ids = [...new Set(userIds)];
  if (ids.length === 0) return [];
  const found = await db
    .select({ userId: notifications.userId, unread: count() })
    .from(notifications)
    .where(and(inArray(notifications.userId, ids), isNull(notifications.readAt)))
    .groupBy(notifications.userId);
  const byUser = new Map(found.map((r) => [r.userId, Number(r.unread)]));
  return ids.map((userId) => ({ userId, unread: byUser.get(userId) ?? 0 }));
}

/** GET /api/notifications */
export async function listNotifications(db: Db, opts: { userId: string }): Promise<NotificationsAnswer> {
  const [items, [counted]] = await Promise.all([
    db
      .select()
      .from(notifications)
      .where(eq(notifications.userId, opts.userId))
      .orderBy(desc(notifications.createdAt), desc(notifications.id))
      .limit(BELL_LIMIT),
    unreadCounts(db, [opts.userId]),
  ]);
  return { items: items.map(present), unread: counted?.unread ?? 0 };
}

/** POST /api/notifications/read: marks some of the caller's own notifications (or all) read; others' ids change nothing. */
export async function readNotifications(
  db: Db,
  opts: Acting<{ id: string }> & { input: ReadNotificationsInput },
): Promise<{ answer: ReadAnswer; events: DomainEvent[] }> {
  const userId = opts.actor.id;
  return db.transaction(async (tx) => {
    const mine = and(eq(notifications.userId, userId), isNull(notifications.readAt));
    const ids = opts.input.ids;
    const which = ids
      ? and(
          mine,
          inArray(
            notifications.id,
            ids.map((id) => id.toLowerCase()),
          ),
        )
      : mine;
    const marked = await tx.update(notifications).set({ readAt: new Date() }).where(which).returning({ id: notifications.id });
    const [counted] = await unreadCounts(tx, [userId]);
    const unread = counted?.unread ?? 0;
    return { answer: { unread }, events: marked.length ? [{ type: 'notificationsChanged', unread: [{ userId, unread }] }] : [] };
  });
}

/**
 * Writes one notification for one user (an application approved or declined, say), inside the
 * caller's transaction, and answers the event to publish after the commit. A show's alert is
 * written by the fan-out (fan-out.ts), once per user and show.
 */
export async function notifyUser(
  tx: Db | Tx,
  opts: { userId: string; kind: NotificationKind; title: string; body?: string; url: string; sessionId?: string | null },
): Promise<{ id: string | null; events: DomainEvent[] }> {
  const [made] = await tx
    .insert(notifications)
    .values({ userId: opts.userId, kind: opts.kind, title: opts.title, body: opts.body ?? '', url: opts.url, sessionId: opts.sessionId ?? null })
    .onConflictDoNothing()
    .returning({ id: notifications.id });
  if (!made) return { id: null, events: [] };
  return { id: made.id, events: [{ type: 'notificationsChanged', unread: await unreadCounts(tx, [opts.userId]) }] };
}
