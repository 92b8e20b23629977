import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { isUuid } from '../../../domain/ids.js';
import type { Invitation, InvitationListResponse } from '../../../domain/invitation-rules.js';
import { INVITATION_TTL_DAYS, type InvitationInput } from '../../../domain/invitations.js';
import { recordAudit } from '../../audit.js';
import type { Db, Tx } from '../../db/connect.js';
import { companies, invitations, userProfiles } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import type { Acting } from '../../http/request-context.js';
import { messages } from '../../messages.js';
import { companyNameSql } from '../../reads/companies.js';
import { managedCompany, mayInviteInto, mayManage, type UserActor } from './policies.js';

type Actor = UserActor;

const DAY_MS = 24 * 60 * 60 * 1000;
/** Open: neither answered nor revoked (an expired one is still open until an admin revokes or replaces it). */
export const isOpen = and(isNull(invitations.acceptedAt), isNull(invitations.revokedAt), isNull(invitations.declinedAt));
/** On the admin's list: open, or declined and not yet cleared (revoked) by an admin. */
const isListed = and(isNull(invitations.acceptedAt), isNull(invitations.revokedAt));

/** The sender's name as the invitation shows it (the admin's own, never the invited person's). */
export const inviterName = sql<string | null>`(select coalesce(nullif(trim(concat_ws(' ', p.first_name, p.last_name)), ''), p.display_name, p.email)
  from ${userProfiles} p where p.user_id = ${invitations.invitedBy})`;
const columns = {
  id: invitations.id,
  email: invitations.email,
  companyId: invitations.companyId,
  companyName: companyNameSql(invitations.companyId),
  invitedByName: inviterName,
  createdAt: invitations.createdAt,
  expiresAt: invitations.expiresAt,
  declinedAt: invitations.declinedAt,
};
type Row = {
  id: string;
  email: string;
  companyId: string;
  companyName: string | null;
  invitedByName: string | null;
  createdAt: Date;
  expiresAt: Date;
  declinedAt: Date | null;
};

function present(row: Row, now = Date.now()): Invitation {
  return {
    id: row.id,
    email: row.email,
    companyId: row.companyId,
    companyName: row.companyName,
    invitedByName: row.invitedByName,
    createdAt: row.createdAt.getTime(),
    expiresAt: row.expiresAt.getTime(),
    status: row.declinedAt ? 'declined' : row.expiresAt.getTime() > now ? 'pending' : 'expired',
  };
}

const fill = (template: string, email: string) => template.replaceAll('{{email}}', email);
const duplicate = (email: string) =>
  new AppError('CONFLICT', fill(messages.invitations.duplicate, email), { email: fill(messages.invitations.duplicate, email) });

/**
 * The company an actor's invitation goes to: a platform admin names any existing company; a company
 * admin always invites into its own, and naming another one is refused outright.
 */
async function targetCompany(db: Db | Tx, actor: Actor, companyId: string | undefined): Promise<string> {
  const own = managedCompany(actor);
  if (own !== null) {
    if (!mayInviteInto(actor, companyId)) throw new AppError('FORBIDDEN', messages.invitations.ownCompanyOnly);
    return own;
  }
  if (companyId === undefined) {
    throw new AppError('VALIDATION', messages.errors.validation, { companyId: messages.fields.invitationCompanyRequired });
  }
  const [company] = await db.select({ id: companies.id }).from(companies).where(eq(companies.id, companyId));
  if (!company) throw new AppError('NOT_FOUND', messages.invitations.companyNotFound, { companyId: messages.invitations.companyNotFound });
  return company.id;
}

/**
 * POST /api/invitations: invites one address as a seller of the actor's company (or any, for a
 * platform admin). Whether the address has an account, and whose, is never looked at: the answer,
 * and the work done to give it, are the same for a stranger, a buyer, an admin or another company's
 * seller. The person decides at their next sign-in (invitation-answers.ts).
 */
export async function createInvitation(db: Db, opts: Acting<Actor> & { input: InvitationInput; now?: Date }): Promise<Invitation> {
  const { actor, input } = opts;
  const now = opts.now ?? new Date();
  return db.transaction(async (tx) => {
    const companyId = await targetCompany(tx, actor, input.companyId);
    const sameAddress = and(eq(invitations.email, input.email), eq(invitations.companyId, companyId), isListed);
    const listed = await tx.select().from(invitations).where(sameAddress).for('update');
    const open = listed.find((row) => row.declinedAt === null);
    // Only this company's own invitations count: what other companies sent stays theirs.
    if (open && open.expiresAt > now) throw duplicate(input.email);
    // An expired or declined one is replaced: closed as revoked by this new invitation's sender.
    if (listed.length > 0) await tx.update(invitations).set({ revokedAt: now, revokedBy: actor.id }).where(sameAddress);

    // A concurrent invitation of the same address to the same company wins the open-invitation index.
    const [created] = await tx
      .insert(invitations)
      .values({ email: input.email, companyId, invitedBy: actor.id, createdAt: now, expiresAt: new Date(now.getTime() + INVITATION_TTL_DAYS * DAY_MS) })
      .onConflictDoNothing()
      .returning({ id: invitations.id });
    if (!created) throw duplicate(input.email);
    await recordAudit(tx, {
      by: opts,
      action: 'invitation.create',
      entityType: 'invitation',
      entityId: created.id,
      after: { email: input.email, companyId },
    });
    return present(await readOne(tx, created.id), now.getTime());
  });
}

/** GET /api/invitations: open and declined invitations, newest first; a company admin sees only its company's. */
export async function listInvitations(db: Db, opts: { actor: Actor; companyId?: string | undefined }): Promise<InvitationListResponse> {
  const scope = managedCompany(opts.actor) ?? opts.companyId;
  const found = await db
    .select(columns)
    .from(invitations)
    .where(and(isListed, scope === undefined ? undefined : eq(invitations.companyId, scope)))
    .orderBy(desc(invitations.createdAt), desc(invitations.id))
    .limit(500);
  const now = Date.now();
  return { items: found.map((row) => present(row, now)) };
}

/**
 * DELETE /api/invitations/{id}. Revoking twice is fine; a declined one is taken off the list; another
 * company's invitation does not exist for the caller.
 */
export async function revokeInvitation(db: Db, opts: Acting<Actor> & { id: string }): Promise<void> {
  if (!isUuid(opts.id)) throw new AppError('NOT_FOUND', messages.invitations.notFound);
  await db.transaction(async (tx) => {
    const [row] = await tx.select().from(invitations).where(eq(invitations.id, opts.id)).for('update');
    if (!row || !mayManage(opts.actor, row)) throw new AppError('NOT_FOUND', messages.invitations.notFound);
    if (row.acceptedAt) throw new AppError('CONFLICT', messages.invitations.alreadyUsed);
    if (row.revokedAt) return;
    await tx.update(invitations).set({ revokedAt: new Date(), revokedBy: opts.actor.id }).where(eq(invitations.id, row.id));
    await recordAudit(tx, {
      by: opts,
      action: 'invitation.revoke',
      entityType: 'invitation',
      entityId: row.id,
      before: { email: row.email, companyId: row.companyId },
    });
  });
}

async function readOne(tx: Tx, id: string): Promise<Row> {
  const [row] = await tx.select(columns).from(invitations).where(eq(invitations.id, id));
  if (!row) throw new Error('invitation vanished');
  return row;
}
