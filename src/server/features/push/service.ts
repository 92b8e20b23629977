import { createECDH } from 'node:crypto';
import { and, eq, inArray, notInArray, sql } from 'drizzle-orm';
import { MAX_PUSH_SUBSCRIPTIONS_PER_USER, PUSH_FIELD_MESSAGES, type PushSubscriptionInput } from '../../../domain/push.js';
import { recordAudit } from '../../audit.js';
import type { Db } from '../../db/connect.js';
import { notifications, pushDeliveries, pushSubscriptions } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import type { Acting } from '../../http/request-context.js';
import { messages } from '../../messages.js';
import { endpointProblem } from './addresses.js';

/** Whether the browser's key is a point of P-256 (65 bytes that are not one would make every push to it fail). */
function isCurvePoint(p256dh: string): boolean {
  try {
    const probe = createECDH('prime256v1');
    probe.generateKeys();
    probe.computeSecret(Buffer.from(p256dh, 'base64url'));
    return true;
  } catch {
    return false;
  }
}

/**
 * Saves a browser's subscription for the signed-in user: one row per endpoint, re-owned by whoever
 * subscribes it last (a shared phone's browser changes hands), its keys replaced. Pending pushes of
 * another user's alerts to that browser are dropped. An account keeps its newest
 * MAX_PUSH_SUBSCRIPTIONS_PER_USER; older ones go.
 */
export async function subscribe(
  db: Db,
  opts: Acting & { input: PushSubscriptionInput; userAgent: string | null; allowedOrigins: readonly string[] },
): Promise<{ id: string }> {
  const { actor, input } = opts;
  const problem = endpointProblem(input.endpoint, opts.allowedOrigins);
  if (problem) throw new AppError('VALIDATION', messages.errors.validation, { endpoint: PUSH_FIELD_MESSAGES[problem] });
  if (!isCurvePoint(input.keys.p256dh)) throw new AppError('VALIDATION', messages.errors.validation, { 'keys.p256dh': PUSH_FIELD_MESSAGES.pushKeyInvalid });
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(pushSubscriptions)
      .values({ userId: actor.id, endpoint: input.endpoint, p256dh: input.keys.p256dh, auth: input.keys.auth, userAgent: opts.userAgent })
      .onConflictDoUpdate({
        target: pushSubscriptions.endpoint,
        set: {
          userId: actor.id,
          p256dh: input.keys.p256dh,
          auth: input.keys.auth,
          userAgent: opts.userAgent,
          // "Newest" is when it was last subscribed: a browser that subscribes again is kept.
          createdAt: sql`now()`,
          failureCount: 0,
        },
      })
      .returning({ id: pushSubscriptions.id });
    if (!row) throw new Error('push subscription upsert returned no row');
    await tx
      .delete(pushDeliveries)
      .where(
        and(
          eq(pushDeliveries.subscriptionId, row.id),
          eq(pushDeliveries.status, 'pending'),
          inArray(pushDeliveries.notificationId, tx.select({ id: notifications.id }).from(notifications).where(sql`${notifications.userId} <> ${actor.id}`)),
        ),
      );
    const keep = tx
      .select({ id: pushSubscriptions.id })
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.userId, actor.id))
      .orderBy(sql`${pushSubscriptions.createdAt} desc`, sql`${pushSubscriptions.id} desc`)
      .limit(MAX_PUSH_SUBSCRIPTIONS_PER_USER);
    const dropped = await tx
      .delete(pushSubscriptions)
      .where(and(eq(pushSubscriptions.userId, actor.id), notInArray(pushSubscriptions.id, keep)))
      .returning({ id: pushSubscriptions.id });
    await recordAudit(tx, {
      by: opts,
      action: 'push.subscribe',
      entityType: 'user',
      entityId: actor.id,
      after: { subscriptionId: row.id, origin: new URL(input.endpoint).origin, dropped: dropped.length },
    });
    return { id: row.id };
  });
}

/** Removes the caller's own subscription of that endpoint; anyone else's is left alone (and the answer is the same). */
export async function unsubscribe(db: Db, opts: Acting & { endpoint: string }): Promise<void> {
  await db.transaction(async (tx) => {
    const [gone] = await tx
      .delete(pushSubscriptions)
      .where(and(eq(pushSubscriptions.endpoint, opts.endpoint), eq(pushSubscriptions.userId, opts.actor.id)))
      .returning({ id: pushSubscriptions.id });
    if (!gone) return;
    await recordAudit(tx, {
      by: opts,
      action: 'push.unsubscribe',
      entityType: 'user',
      entityId: opts.actor.id,
      before: { subscriptionId: gone.id, origin: URL.canParse(opts.endpoint) ? new URL(opts.endpoint).origin : '' },
    });
  });
}
