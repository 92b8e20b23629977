import { and, desc, eq, gt, sql } from 'drizzle-orm';
import { isUuid } from '../../../domain/ids.js';
import {
  INVITED_ROLE,
  type InvitationAnswer,
  invitationAcceptance,
  type ReceivedInvitation,
  type ReceivedInvitationList,
} from '../../../domain/invitation-rules.js';
import type { Role } from '../../../domain/role-rules.js';
import { recordAudit } from '../../audit.js';
import type { Db, Tx } from '../../db/connect.js';
import { invitations, userProfiles, users } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import type { Acting } from '../../http/request-context.js';
import { messages } from '../../messages.js';
import { companyNameSql } from '../../reads/companies.js';
import type { DomainEvent } from '../../realtime/publisher.js';
import type { CurrentUser } from '../../sessions/store.js';
import { inviterName, isOpen } from './invitations.js';

/**
 * The invited person's side: an invitation changes nothing until the account it was sent to
 * answers it, after signing in. Someone else's invitation does not exist for the caller (404).
 */
type Answering = Acting<Pick<CurrentUser, 'id' | 'email'>> & {
  /**
   * Whether an address nobody proved may take up invitations: true only with the development
   * sign-in, which proves nothing anyway. Otherwise the identity provider must have verified it.
   */
  trustUnverifiedEmail: boolean;
};

const received = {
  id: invitations.id,
  companyId: invitations.companyId,
  companyName: companyNameSql(invitations.companyId),
  invitedByName: inviterName,
  createdAt: invitations.createdAt,
  expiresAt: invitations.expiresAt,
};

const notYours = () => new AppError('NOT_FOUND', messages.invitations.notYours);

async function ownsAddress(db: Db | Tx, opts: Answering): Promise<boolean> {
  if (opts.trustUnverifiedEmail) return true;
  const [row] = await db.select({ emailVerified: users.emailVerified }).from(users).where(eq(users.id, opts.actor.id));
  return row?.emailVerified ?? false;
}

/** GET /api/me/invitations: the open, unexpired invitations sent to the signed-in account's address. */
export async function listReceivedInvitations(db: Db, opts: Answering): Promise<ReceivedInvitationList> {
  if (!(await ownsAddress(db, opts))) return { items: [] };
  const found = await db
    .select(received)
    .from(invitations)
    .where(and(eq(invitations.email, opts.actor.email), isOpen, gt(invitations.expiresAt, sql`now()`)))
    .orderBy(desc(invitations.createdAt), desc(invitations.id))
    .limit(50);
  return {
    items: found.map(
      (row): ReceivedInvitation => ({
        id: row.id,
        companyId: row.companyId,
        companyName: row.companyName,
        invitedByName: row.invitedByName,
        role: INVITED_ROLE,
        createdAt: row.createdAt.getTime(),
        expiresAt: row.expiresAt.getTime(),
      }),
    ),
  };
}

type Answered = { answer: InvitationAnswer; events: DomainEvent[] };
type InvitationRow = typeof invitations.$inferSelect;

/** Locks the invitation if it was sent to this account; anything else is not found. */
async function lockOwn(tx: Tx, opts: Answering & { id: string }): Promise<InvitationRow> {
  if (!isUuid(opts.id)) throw notYours();
  const [row] = await tx.select().from(invitations).where(eq(invitations.id, opts.id)).for('update');
  if (!row || row.email !== opts.actor.email || !(await ownsAddress(tx, opts))) throw notYours();
  return row;
}

async function answerOf(tx: Tx, row: InvitationRow, status: InvitationAnswer['status']): Promise<InvitationAnswer> {
  const [company] = await tx
    .select({ name: companyNameSql(invitations.companyId) })
    .from(invitations)
    .where(eq(invitations.id, row.id));
  return { id: row.id, companyId: row.companyId, companyName: company?.name ?? null, status };
}

/** Why a closed invitation cannot be answered now; an answer given by this very account is handled by the caller. */
function refuseClosed(row: InvitationRow, now: Date): void {
  if (row.acceptedAt) throw new AppError('CONFLICT', messages.invitations.alreadyAccepted);
  if (row.declinedAt) throw new AppError('CONFLICT', messages.invitations.alreadyDeclined);
  if (row.revokedAt) throw new AppError('CONFLICT', messages.invitations.revoked);
  if (row.expiresAt <= now) throw new AppError('CONFLICT', messages.invitations.expired);
}

/**
 * POST /api/invitations/{id}/accept: the account becomes a seller of the inviting company, leaving
 * any other company it was in (domain/invitation-rules.ts says who may). A second click finds it
 * accepted by the same account and answers the same, changing nothing.
 */
export async function acceptInvitation(db: Db, opts: Answering & { id: string; now?: Date }): Promise<Answered> {
  const now = opts.now ?? new Date();
  return db.transaction(async (tx) => {
    const row = await lockOwn(tx, opts);
    if (row.acceptedAt && row.acceptedBy === opts.actor.id) return { answer: await answerOf(tx, row, 'accepted'), events: [] };
    refuseClosed(row, now);
    const [profile] = await tx
      .select({ roles: userProfiles.roles, companyId: userProfiles.companyId })
      .from(userProfiles)
      .where(eq(userProfiles.userId, opts.actor.id))
      .for('update');
    if (!profile) throw notYours();
    const before = { roles: profile.roles as Role[], companyId: profile.companyId };
    if (invitationAcceptance({ roles: before.roles, profileCompanyId: before.companyId }, row.companyId) === 'adminBlocked') {
      throw new AppError('CONFLICT', messages.invitations.adminBlocked);
    }
    const roles = before.roles.includes(INVITED_ROLE) ? before.roles : [...before.roles, INVITED_ROLE];
    await tx.update(userProfiles).set({ companyId: row.companyId, roles, updatedAt: now }).where(eq(userProfiles.userId, opts.actor.id));
    await tx.update(invitations).set({ acceptedAt: now, acceptedBy: opts.actor.id }).where(eq(invitations.id, row.id));
    // Logged as a change of roles and company is (users/service.ts), by the person who accepted.
    await recordAudit(tx, {
      by: opts,
      action: 'invitation.accept',
      entityType: 'user',
      entityId: opts.actor.id,
      before,
      after: { roles, companyId: row.companyId, invitationId: row.id },
    });
    return { answer: await answerOf(tx, row, 'accepted'), events: [{ type: 'userAccessChanged', userId: opts.actor.id }] };
  });
}

/** POST /api/invitations/{id}/decline: the invitation is closed as declined; the account is not touched. */
export async function declineInvitation(db: Db, opts: Answering & { id: string; now?: Date }): Promise<InvitationAnswer> {
  const now = opts.now ?? new Date();
  return db.transaction(async (tx) => {
    const row = await lockOwn(tx, opts);
    if (row.declinedAt && row.declinedBy === opts.actor.id) return answerOf(tx, row, 'declined');
    refuseClosed(row, now);
    await tx.update(invitations).set({ declinedAt: now, declinedBy: opts.actor.id }).where(eq(invitations.id, row.id));
    await recordAudit(tx, {
      by: opts,
      action: 'invitation.decline',
      entityType: 'invitation',
      entityId: row.id,
      before: { email: row.email, companyId: row.companyId },
    });
    return answerOf(tx, row, 'declined');
  });
}
