import type { ProviderStatus } from '../domain/payments.js';
import type { Db, Tx } from './db/connect.js';
import { auditLog } from './db/schema.js';

/**
 * Every action the audit log records, as stored in audit_log.action: `entity.verb`, the entity
 * singular and each part in snake_case (drizzle/0019 rewrote the few older rows spelled otherwise,
 * so a filter on an action finds old and new rows alike). A new action is added here in that form.
 */
export const AUDIT_ACTIONS = [
  'auction.create',
  'auction.update',
  'auction.delete',
  'auction.buy_now',
  'auction.closed',
  'auction.bids_withdraw',
  'category.create',
  'category.rename',
  'category.delete',
  'chat.delete',
  'chat.pin',
  'chat.announce',
  'chat.slow_mode',
  'chat.mute',
  'chat.unmute',
  'company.update',
  'company.block',
  'company.unblock',
  'company.muted_words',
  'invitation.create',
  'invitation.revoke',
  'invitation.accept',
  'invitation.decline',
  'live_session.create',
  'live_session.update',
  'live_session.delete',
  'live_session.stream_start',
  'live_session.stream_stop',
  'live_session.add_lot',
  'live_session.remove_lot',
  'live_session.reorder_lots',
  'live_session.set_current',
  'live_session.timer',
  'live_session.next',
  'live_session.requeue',
  'live_session.shipping',
  'live_session.lot_format',
  'live_session.moderator_add',
  'live_session.moderator_remove',
  'payment.draft',
  'payment.add_auctions',
  'payment.shipping',
  'payment.finalize',
  'payment.cancel',
  'payment.request_payout',
  'payment.mark_paid_out',
  'payment.expire',
  'unpaid.decide',
  'unpaid.second_chance.decline',
  'unpaid.strikes.block',
  'unpaid.strikes.lift',
  'payment.reminder_sent',
  'payment.connect',
  'profile.whatsapp_consent',
  'roles.grant_first_admin',
  'roles.grant_admin_emails',
  'user.roles',
  'user.company',
] as const;

/** One of AUDIT_ACTIONS, or a provider's news about a payment (`payment.provider.approved`). */
export type AuditAction = (typeof AUDIT_ACTIONS)[number] | `payment.provider.${ProviderStatus}`;

/**
 * Who acted and from where: a request's context (http/request-context.ts), whose requestId is the
 * response's X-Request-ID; or null for a background job (the closing scheduler, payment expiry,
 * auto-advance), whose rows keep a null request_id: a job has no request, and its log lines say
 * which run it was. A webhook has no actor but has a request, so it passes `{ actor: null, requestId }`.
 */
export type AuditOrigin = { actor: { id: string } | null; ip?: string | null | undefined; requestId?: string | null | undefined } | null;

interface AuditFacts {
  action: AuditAction;
  entityType: string;
  entityId: string;
  before?: unknown;
  after?: unknown;
}

/** The facts and their origin: a request's context, or one spelled out where no session exists yet (signing in). */
export type AuditEntry = AuditFacts & { by: AuditOrigin };

/** Adds one row to the audit log, inside the caller's transaction. */
export async function recordAudit(db: Db | Tx, entry: AuditEntry): Promise<void> {
  await db.insert(auditLog).values({
    actorId: entry.by?.actor?.id ?? null,
    action: entry.action,
    entityType: entry.entityType,
    entityId: entry.entityId,
    before: entry.before ?? null,
    after: entry.after ?? null,
    ip: entry.by?.ip ?? null,
    requestId: entry.by?.requestId ?? null,
  });
}
