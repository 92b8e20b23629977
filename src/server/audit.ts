import type { ProviderStatus } from '../domain/payments.js';
import type { Db, Tx } from './db/connect.js';
import { auditLog } from './db/schema.js';

/**
 * Every action the audit log records, as stored in audit_log.action. The spellings are those the
 * rows already hold (some dotted camelCase, some snake_case, one plural), kept as they are so old
 * and new rows read and filter the same; a new action is added here, in the same `entity.verb`
 * form as its neighbours.
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
  'payment.addAuctions',
  'payment.shipping',
  'payment.finalize',
  'payment.cancel',
  'payment.requestPayout',
  'payment.markPaidOut',
  'payment.expire',
  'unpaid.decide',
  'unpaid.secondChance.decline',
  'unpaid.strikes.block',
  'unpaid.strikes.lift',
  'payment.reminder_sent',
  'payments.connect',
  'profile.whatsapp_consent',
  'roles.grant_first_admin',
  'roles.grant_admin_emails',
  'user.roles',
  'user.company',
] as const;

/** One of AUDIT_ACTIONS, or a provider's news about a payment (`payment.provider.approved`). */
export type AuditAction = (typeof AUDIT_ACTIONS)[number] | `payment.provider.${ProviderStatus}`;

/** Who acted and from where: a request's context (http/request-context.ts), or null for the system (the scheduler, a webhook). */
export type AuditOrigin = { actor: { id: string } | null; ip?: string | null | undefined } | null;

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
  });
}
