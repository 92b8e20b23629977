import { type AnyColumn, and, desc, eq, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { type BlockAnswer, type CompanyBlock, chatPublicName } from '../../../domain/chat.js';
import { isUuid } from '../../../domain/ids.js';
import type { Role } from '../../../domain/role-rules.js';
import { recordAudit } from '../../audit.js';
import type { Db, Tx } from '../../db/connect.js';
import { companyBlocks, userProfiles, users } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import type { Acting } from '../../http/request-context.js';
import { messages } from '../../messages.js';
import type { DomainEvent } from '../../realtime/publisher.js';
import { withdrawBidder } from '../bids/index.js';
import { heldWins } from './blocked-winners.js';
import { assertBlockable, assertMayBlock, assertModerates, moderatesCompany } from './moderation-policies.js';
import type { CompanyActor } from './policies.js';

/** What the chat calls someone whose profile has no name ('Participante'). */
const NO_NAME = chatPublicName({ firstName: null, lastName: null, displayName: null });

/** Blocked users and, apart, the people who blocked them. */
const blocked = alias(userProfiles, 'blocked_profile');
const blocker = alias(userProfiles, 'blocker_profile');

/**
 * How the panel names a person: first and last name once the profile has both, else the display
 * name, else the first name, else (for the company's own people only) the e-mail. A show's
 * moderator never reads an e-mail: a profile without a name is 'Participante', as the chat says.
 */
function personName(p: Record<'firstName' | 'lastName' | 'displayName' | 'email', AnyColumn>, opts: { withEmail: boolean }): SQL<string | null> {
  const full = sql`case when nullif(trim(${p.lastName}), '') is not null then trim(concat_ws(' ', trim(${p.firstName}), trim(${p.lastName}))) end`;
  const last = opts.withEmail ? sql`${p.email}` : sql`${NO_NAME}::text`;
  return sql<string | null>`coalesce(${full}, nullif(trim(${p.displayName}), ''), nullif(trim(${p.firstName}), ''), ${last})`;
}

/** GET /api/companies/{id}/blocks: the company's blocked users, newest first. */
export async function listBlocks(db: Db, opts: { actor: CompanyActor; companyId: string }): Promise<{ items: CompanyBlock[] }> {
  await assertModerates(db, opts.actor, opts.companyId);
  const rows = await selectBlocks(db, eq(companyBlocks.companyId, opts.companyId), { withEmail: true });
  return { items: rows };
}

/**
 * POST /api/companies/{id}/blocks: blocks a user from the company's chats, bids and purchases, in one
 * transaction: their standing bids on its lots not yet closed are withdrawn (each lot falls back to
 * the others' bids: bids/withdraw.ts), their pre-bids there removed, and the lots they already won
 * and no bill holds are named (never billed while blocked: blocked-winners.ts). Only a new block is
 * audited and heard by the user's pages; a repeat changes nothing else, except that it withdraws
 * what a block made without it left standing (a strikes block: payments/unpaid/expiry.ts). Either way the
 * answer has the same shape, and a show's moderator (who may be a buyer) reads names, never an
 * e-mail: those are for the company's own people and platform admins.
 */
export async function blockUser(
  db: Db,
  opts: Acting<CompanyActor> & { companyId: string; userId: string },
): Promise<{ block: BlockAnswer; created: boolean; events: DomainEvent[] }> {
  return db.transaction(async (tx) => {
    await assertMayBlock(tx, opts.actor, opts.companyId);
    const target = await findUser(tx, opts.userId);
    if (!target) throw new AppError('NOT_FOUND', messages.moderation.userNotFound);
    assertBlockable(opts.actor, target, opts.companyId);
    const inserted = await tx
      .insert(companyBlocks)
      .values({ companyId: opts.companyId, userId: opts.userId, blockedBy: opts.actor.id })
      .onConflictDoNothing()
      .returning({ userId: companyBlocks.userId });
    const created = inserted.length > 0;
    if (created) {
      await recordAudit(tx, {
        by: opts,
        action: 'company.block',
        entityType: 'company',
        entityId: opts.companyId,
        after: { userId: opts.userId, email: target.email },
      });
    }
    const withdrawn = await withdrawBidder(tx, { by: opts, companyId: opts.companyId, userId: opts.userId });
    const withEmail = moderatesCompany(opts.actor, opts.companyId);
    const [block] = await selectBlocks(tx, and(eq(companyBlocks.companyId, opts.companyId), eq(companyBlocks.userId, opts.userId)), { withEmail });
    if (!block) throw new Error('block row missing after insert');
    return {
      block: {
        ...block,
        withdrawn: withdrawn.lots,
        prebidsRemoved: withdrawn.prebidsRemoved,
        heldWins: await heldWins(tx, { companyId: opts.companyId, userId: opts.userId }),
      },
      created,
      events: [...(created ? [standing(opts.companyId, opts.userId, true)] : []), ...withdrawn.events],
    };
  });
}

/** DELETE /api/companies/{id}/blocks/{userId}: 404 when the user is not blocked there. */
export async function unblockUser(db: Db, opts: Acting<CompanyActor> & { companyId: string; userId: string }): Promise<{ events: DomainEvent[] }> {
  return db.transaction(async (tx) => {
    await assertModerates(tx, opts.actor, opts.companyId);
    if (!isUuid(opts.userId)) throw new AppError('NOT_FOUND', messages.moderation.notBlocked);
    const removed = await tx
      .delete(companyBlocks)
      .where(and(eq(companyBlocks.companyId, opts.companyId), eq(companyBlocks.userId, opts.userId)))
      .returning({ blockedBy: companyBlocks.blockedBy, createdAt: companyBlocks.createdAt });
    const [was] = removed;
    if (!was) throw new AppError('NOT_FOUND', messages.moderation.notBlocked);
    await recordAudit(tx, {
      by: opts,
      action: 'company.unblock',
      entityType: 'company',
      entityId: opts.companyId,
      before: { userId: opts.userId, blockedBy: was.blockedBy, blockedAt: was.createdAt.toISOString() },
    });
    return { events: [standing(opts.companyId, opts.userId, false)] };
  });
}

/** The user's own pages hear it (their composer and bid panel follow); a company block names no session. */
function standing(companyId: string, userId: string, isBlocked: boolean): DomainEvent {
  return { type: 'chatStandingChanged', userId, standing: { sessionId: null, companyId, isBlocked } };
}

/** The blocks as listed; `withEmail` for the company's own people and platform admins only. */
async function selectBlocks(db: Db | Tx, where: SQL | undefined, opts: { withEmail: boolean }): Promise<CompanyBlock[]> {
  const rows = await db
    .select({
      userId: companyBlocks.userId,
      name: personName(blocked, opts),
      email: users.email,
      blockedBy: sql<string | null>`case when ${companyBlocks.blockedBy} is null then null else ${personName(blocker, opts)} end`,
      createdAt: companyBlocks.createdAt,
    })
    .from(companyBlocks)
    .innerJoin(users, eq(users.id, companyBlocks.userId))
    .leftJoin(blocked, eq(blocked.userId, companyBlocks.userId))
    .leftJoin(blocker, eq(blocker.userId, companyBlocks.blockedBy))
    .where(where)
    .orderBy(desc(companyBlocks.createdAt), desc(companyBlocks.userId));
  return rows.map(({ email, ...r }) => ({
    ...r,
    name: r.name ?? (opts.withEmail ? email : NO_NAME),
    ...(opts.withEmail ? { email } : {}),
    createdAt: r.createdAt.getTime(),
  }));
}

async function findUser(db: Db | Tx, userId: string): Promise<{ id: string; email: string; roles: Role[]; profileCompanyId: string | null } | undefined> {
  const [row] = await db
    .select({ id: users.id, email: users.email, roles: userProfiles.roles, profileCompanyId: userProfiles.companyId })
    .from(users)
    .leftJoin(userProfiles, eq(userProfiles.userId, users.id))
    .where(eq(users.id, userId));
  if (!row) return undefined;
  return { id: row.id, email: row.email, roles: (row.roles ?? ['buyer']) as Role[], profileCompanyId: row.profileCompanyId };
}
