import { and, eq, ne, sql } from 'drizzle-orm';
import { canUsePanel, effectiveCompanyId, isPlatformAdmin, type Role } from '../../../domain/role-rules.js';
import type { Db, Tx } from '../../db/connect.js';
import { companies, liveSessions, sessionModerators } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import { messages } from '../../messages.js';
import { ensureCompany } from '../../reads/companies.js';
import { type CompanyActor, companyNotFound } from './policies.js';

/**
 * Who moderates a company's audience (its blocked users and muted words): its own panel users
 * (admins and sellers, a one-person company's seller included) and platform admins.
 */
export function moderatesCompany(actor: CompanyActor, companyId: string): boolean {
  if (isPlatformAdmin(actor)) return true;
  return canUsePanel(actor.roles) && actor.companyId === companyId;
}

/**
 * The company's moderation, for its panel users and platform admins; any other panel user hears
 * "not found" as for an unknown id (ids cannot be probed). Makes a one-person company's record on
 * first use, as the companies list does; an unknown id is not found, even for a platform admin.
 */
export async function assertModerates(db: Db | Tx, actor: CompanyActor, companyId: string): Promise<void> {
  if (!moderatesCompany(actor, companyId)) throw companyNotFound();
  if (companyId === actor.companyId) await ensureCompany(db, companyId);
  else if (!(await companyExists(db, companyId))) throw companyNotFound();
}

/**
 * Blocking also belongs to a moderator appointed to one of the company's sessions not yet ended
 * (they block from the show's chat): their power stops at that company. A panel user of another
 * company hears "not found"; anyone else a 403.
 */
export async function assertMayBlock(db: Db | Tx, actor: CompanyActor, companyId: string): Promise<void> {
  if (moderatesCompany(actor, companyId)) return assertModerates(db, actor, companyId);
  if (await moderatesLiveSessionOf(db, actor.id, companyId)) return;
  if (canUsePanel(actor.roles)) throw companyNotFound();
  throw new AppError('FORBIDDEN', messages.moderation.blockForbidden);
}

/** Whether the user is an appointed moderator of a session of this company that has not ended. */
export async function moderatesLiveSessionOf(db: Db | Tx, userId: string, companyId: string): Promise<boolean> {
  const [hit] = await db
    .select({ one: sql<number>`1` })
    .from(sessionModerators)
    .innerJoin(liveSessions, eq(liveSessions.id, sessionModerators.sessionId))
    .where(and(eq(sessionModerators.userId, userId), eq(liveSessions.companyId, companyId), ne(liveSessions.status, 'ended')))
    .limit(1);
  return hit !== undefined;
}

/** Whom no one may block from a company: themselves, the company's own people (sellers, admins), a platform admin. */
export function assertBlockable(
  actor: { id: string },
  target: { id: string; roles: readonly Role[]; profileCompanyId: string | null },
  companyId: string,
): void {
  if (target.id === actor.id) throw new AppError('FORBIDDEN', messages.moderation.cannotBlockSelf);
  if (isPlatformAdmin(target)) throw new AppError('FORBIDDEN', messages.moderation.cannotBlockPlatformAdmin);
  if (effectiveCompanyId(target.id, target.profileCompanyId) === companyId) throw new AppError('FORBIDDEN', messages.moderation.cannotBlockMember);
}

async function companyExists(db: Db | Tx, companyId: string): Promise<boolean> {
  const [row] = await db.select({ id: companies.id }).from(companies).where(eq(companies.id, companyId)).limit(1);
  return row !== undefined;
}
