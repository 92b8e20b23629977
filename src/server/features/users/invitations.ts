import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { isUuid } from '../../../domain/ids.js';
import { INVITATION_TTL_DAYS, type Invitation, type InvitationInput, type InvitationListResponse } from '../../../domain/invitations.js';
import { isAdmin, isPlatformAdmin, type Role } from '../../../domain/roles.js';
import { recordAudit } from '../../audit.js';
import type { Db, Tx } from '../../db/connect.js';
import { companies, invitations, userProfiles, users } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import { messages } from '../../messages.js';
import type { DomainEvent } from '../../realtime/publisher.js';
import type { CurrentUser } from '../auth/sessions.js';
import { companyNameSql } from '../companies/queries.js';

type Actor = Pick<CurrentUser, 'id' | 'roles' | 'profileCompanyId'>;

const DAY_MS = 24 * 60 * 60 * 1000;
/** Open: neither used nor revoked (an expired one is still open until an admin revokes or replaces it). */
const isOpen = and(isNull(invitations.acceptedAt), isNull(invitations.revokedAt));

const inviter = sql<string | null>`(select coalesce(nullif(trim(concat_ws(' ', p.first_name, p.last_name)), ''), p.display_name, p.email)
  from ${userProfiles} p where p.user_id = ${invitations.invitedBy})`;
const columns = {
  id: invitations.id,
  email: invitations.email,
  companyId: invitations.companyId,
  companyName: companyNameSql(invitations.companyId),
  invitedByName: inviter,
  createdAt: invitations.createdAt,
  expiresAt: invitations.expiresAt,
};
type Row = { id: string; email: string; companyId: string; companyName: string | null; invitedByName: string | null; createdAt: Date; expiresAt: Date };

function present(row: Row, now = Date.now()): Invitation {
  return {
    id: row.id,
    email: row.email,
    companyId: row.companyId,
    companyName: row.companyName,
    invitedByName: row.invitedByName,
    createdAt: row.createdAt.getTime(),
    expiresAt: row.expiresAt.getTime(),
    status: row.expiresAt.getTime() > now ? 'pending' : 'expired',
  };
}

const fill = (template: string, email: string) => template.replaceAll('{{email}}', email);

/**
 * The company an actor's invitation goes to: a platform admin names any existing company; a company
 * admin always invites into its own, and naming another one is refused outright.
 */
async function targetCompany(db: Db | Tx, actor: Actor, companyId: string | undefined): Promise<string> {
  if (!isPlatformAdmin(actor)) {
    const own = actor.profileCompanyId as string;
    if (companyId !== undefined && companyId !== own) throw new AppError('FORBIDDEN', messages.invitations.ownCompanyOnly);
    return own;
  }
  if (companyId === undefined) {
    throw new AppError('VALIDATION', messages.errors.validation, { companyId: messages.fields.invitationCompanyRequired });
  }
  const [company] = await db.select({ id: companies.id }).from(companies).where(eq(companies.id, companyId));
  if (!company) throw new AppError('NOT_FOUND', messages.invitations.companyNotFound, { companyId: messages.invitations.companyNotFound });
  return company.id;
}

/** POST /api/invitations: invites one address as a seller of the actor's company (or any, for a platform admin). */
export async function createInvitation(db: Db, opts: { actor: Actor; input: InvitationInput; ip?: string | undefined; now?: Date }): Promise<Invitation> {
  const { actor, input } = opts;
  const now = opts.now ?? new Date();
  return db.transaction(async (tx) => {
    const companyId = await targetCompany(tx, actor, input.companyId);
    const [account] = await tx
      .select({ companyId: userProfiles.companyId, roles: userProfiles.roles })
      .from(users)
      .innerJoin(userProfiles, eq(userProfiles.userId, users.id))
      .where(eq(users.email, input.email));
    if (account) refuseExistingAccount(account, companyId, input.email);

    // The partial unique index allows one open invitation per address: look at it under a lock.
    const [open] = await tx
      .select()
      .from(invitations)
      .where(and(eq(invitations.email, input.email), isOpen))
      .for('update');
    if (open && open.expiresAt > now) {
      // Another company's pending invitation is named without saying which company.
      throw new AppError(
        'CONFLICT',
        fill(open.companyId === companyId ? messages.invitations.duplicate : messages.invitations.duplicateOtherCompany, input.email),
        {
          email: fill(open.companyId === companyId ? messages.invitations.duplicate : messages.invitations.duplicateOtherCompany, input.email),
        },
      );
    }
    // An expired one is replaced: closed as revoked by this new invitation's sender.
    if (open) await tx.update(invitations).set({ revokedAt: now, revokedBy: actor.id }).where(eq(invitations.id, open.id));

    const [created] = await tx
      .insert(invitations)
      .values({ email: input.email, companyId, invitedBy: actor.id, createdAt: now, expiresAt: new Date(now.getTime() + INVITATION_TTL_DAYS * DAY_MS) })
      .returning({ id: invitations.id });
    if (!created) throw new Error('invitation insert returned nothing');
    await recordAudit(tx, {
      actorId: actor.id,
      action: 'invitation.create',
      entityType: 'invitation',
      entityId: created.id,
      after: { email: input.email, companyId },
      ip: opts.ip ?? null,
    });
    return present(await readOne(tx, created.id), now.getTime());
  });
}

/** Someone with an account can only be invited if they are a plain buyer not yet in any company. */
function refuseExistingAccount(account: { companyId: string | null; roles: string[] }, companyId: string, email: string): void {
  const roles = account.roles as Role[];
  if (account.companyId === companyId) throw conflict(messages.invitations.alreadyMember, email);
  if (account.companyId !== null) throw conflict(messages.invitations.otherCompany, email);
  if (isAdmin(roles)) throw conflict(messages.invitations.platformAdmin, email);
  // A seller with no companyId is a company of its own (SPEC §3): its auctions carry its uid.
  if (roles.includes('seller')) throw conflict(messages.invitations.otherCompany, email);
}

const conflict = (template: string, email: string) => new AppError('CONFLICT', fill(template, email), { email: fill(template, email) });

/** GET /api/invitations: open invitations, newest first; a company admin sees only its company's. */
export async function listInvitations(db: Db, opts: { actor: Actor; companyId?: string | undefined }): Promise<InvitationListResponse> {
  const scope = isPlatformAdmin(opts.actor) ? opts.companyId : (opts.actor.profileCompanyId as string);
  const found = await db
    .select(columns)
    .from(invitations)
    .where(and(isOpen, scope === undefined ? undefined : eq(invitations.companyId, scope)))
    .orderBy(desc(invitations.createdAt), desc(invitations.id))
    .limit(500);
  const now = Date.now();
  return { items: found.map((row) => present(row, now)) };
}

/** DELETE /api/invitations/{id}. Revoking twice is fine; another company's invitation does not exist for the caller. */
export async function revokeInvitation(db: Db, opts: { actor: Actor; id: string; ip?: string | undefined }): Promise<void> {
  if (!isUuid(opts.id)) throw new AppError('NOT_FOUND', messages.invitations.notFound);
  await db.transaction(async (tx) => {
    const [row] = await tx.select().from(invitations).where(eq(invitations.id, opts.id)).for('update');
    if (!row || (!isPlatformAdmin(opts.actor) && row.companyId !== opts.actor.profileCompanyId)) {
      throw new AppError('NOT_FOUND', messages.invitations.notFound);
    }
    if (row.acceptedAt) throw new AppError('CONFLICT', messages.invitations.alreadyUsed);
    if (row.revokedAt) return;
    await tx.update(invitations).set({ revokedAt: new Date(), revokedBy: opts.actor.id }).where(eq(invitations.id, row.id));
    await recordAudit(tx, {
      actorId: opts.actor.id,
      action: 'invitation.revoke',
      entityType: 'invitation',
      entityId: row.id,
      before: { email: row.email, companyId: row.companyId },
      ip: opts.ip ?? null,
    });
  });
}

/**
 * At sign-in, inside the sign-in transaction: a user with no company and no panel role (a new
 * account, or a buyer) who holds a pending invitation joins its company as a seller. The
 * invitation is marked used, so it works once; an expired or revoked one does nothing.
 */
export async function acceptInvitationAtSignIn(tx: Tx, opts: { userId: string; email: string; ip?: string | undefined }): Promise<DomainEvent[]> {
  const [profile] = await tx
    .select({ companyId: userProfiles.companyId, roles: userProfiles.roles })
    .from(userProfiles)
    .where(eq(userProfiles.userId, opts.userId))
    .for('update');
  if (!profile || profile.companyId !== null || profile.roles.includes('admin') || profile.roles.includes('seller')) return [];
  const [invitation] = await tx
    .select()
    .from(invitations)
    .where(and(eq(invitations.email, opts.email), isOpen, sql`${invitations.expiresAt} > now()`))
    .for('update');
  if (!invitation) return [];
  const roles = [...new Set([...profile.roles, 'seller'])];
  await tx.update(userProfiles).set({ companyId: invitation.companyId, roles, updatedAt: new Date() }).where(eq(userProfiles.userId, opts.userId));
  await tx.update(invitations).set({ acceptedAt: new Date(), acceptedBy: opts.userId }).where(eq(invitations.id, invitation.id));
  await recordAudit(tx, {
    actorId: opts.userId,
    action: 'invitation.accept',
    entityType: 'user',
    entityId: opts.userId,
    before: { companyId: null, roles: profile.roles },
    after: { companyId: invitation.companyId, roles, invitationId: invitation.id },
    ip: opts.ip ?? null,
  });
  return [{ type: 'userAccessChanged', userId: opts.userId }];
}

async function readOne(tx: Tx, id: string): Promise<Row> {
  const [row] = await tx.select(columns).from(invitations).where(eq(invitations.id, id));
  if (!row) throw new Error('invitation vanished');
  return row;
}
