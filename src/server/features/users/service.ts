import { and, count, desc, eq, or, type SQL, sql } from 'drizzle-orm';
import { isUuid } from '../../../domain/ids.js';
import { ROLES, type Role, type UserRoleFilter } from '../../../domain/role-rules.js';
import { foldText } from '../../../domain/text.js';
import type { UserListItem, UserListResponse } from '../../../domain/users.js';
import { recordAudit } from '../../audit.js';
import type { Db, Tx } from '../../db/connect.js';
import { escapeLike, foldedSql as folded } from '../../db/like.js';
import { userProfiles } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import type { Acting } from '../../http/request-context.js';
import { messages } from '../../messages.js';
import { companyNameSql } from '../../reads/companies.js';
import type { DomainEvent } from '../../realtime/publisher.js';
import type { CurrentUser } from '../../sessions/store.js';
import { managedCompany, mayManage, mayMoveBetweenCompanies } from './policies.js';

type Change = Acting & { userId: string };

const itemColumns = {
  userId: userProfiles.userId,
  displayName: userProfiles.displayName,
  firstName: userProfiles.firstName,
  lastName: userProfiles.lastName,
  email: userProfiles.email,
  whatsapp: userProfiles.whatsapp,
  whatsappConsentGiven: userProfiles.whatsappConsentGiven,
  roles: userProfiles.roles,
  companyId: userProfiles.companyId,
  // The name of the user's company (its record), not the profile's own business name.
  companyName: companyNameSql(sql`coalesce(${userProfiles.companyId}, ${userProfiles.userId}::text)`),
  createdAt: userProfiles.createdAt,
};
type ItemRow = Pick<typeof userProfiles.$inferSelect, Exclude<keyof typeof itemColumns, 'companyName'>> & { companyName: string | null };
/** The user as it now stands, and the events of the change for the caller to publish (none when nothing changed). */
type Changed = { user: UserListItem; events: DomainEvent[] };
/** Sessions and open sockets follow a change of roles or company. */
const accessChanged = (userId: string): DomainEvent[] => [{ type: 'userAccessChanged', userId }];

export function presentUser(row: ItemRow): UserListItem {
  return {
    uid: row.userId,
    displayName: row.displayName,
    firstName: row.firstName,
    lastName: row.lastName,
    email: row.email,
    whatsapp: row.whatsapp,
    whatsappConsentGiven: row.whatsappConsentGiven,
    roles: row.roles as Role[],
    companyId: row.companyId,
    companyName: row.companyName,
    createdAt: row.createdAt.getTime(),
  };
}

// Same answer for an unknown user and another company's user, so a company admin cannot probe ids.
const userNotFound = (actor: CurrentUser) => new AppError('NOT_FOUND', managedCompany(actor) === null ? messages.errors.notFound : messages.users.companyScope);

/** GET /api/users: the actor's users (all, or its company's), filtered, newest first. */
export async function listUsers(
  db: Db,
  opts: { actor: CurrentUser; role: UserRoleFilter; search: string; page: number; pageSize: number },
): Promise<UserListResponse> {
  const company = managedCompany(opts.actor);
  const where = and(
    // A rehearsal's simulated bidders are nobody's users (live/rehearsal-bidders.ts).
    sql`not exists (select 1 from users su where su.id = ${userProfiles.userId} and su.is_simulated)`,
    company === null ? undefined : eq(userProfiles.companyId, company),
    opts.role === 'all' ? undefined : sql`${opts.role} = any(${userProfiles.roles})`,
    searchFilter(opts.search),
  );
  const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(userProfiles).where(where);
  const found = await db
    .select(itemColumns)
    .from(userProfiles)
    .where(where)
    .orderBy(desc(userProfiles.createdAt), desc(userProfiles.userId))
    .limit(opts.pageSize)
    .offset((opts.page - 1) * opts.pageSize);
  return { items: found.map(presentUser), total, page: opts.page, pageSize: opts.pageSize };
}

/** PUT /api/users/{id}/roles. The system always keeps one admin, and one platform admin. */
export async function setUserRoles(db: Db, opts: Change & { roles: Role[] }): Promise<Changed> {
  if (!isUuid(opts.userId)) throw userNotFound(opts.actor);
  const roles = ROLES.filter((r) => opts.roles.includes(r));
  return db.transaction(async (tx) => {
    const admins = roles.includes('admin') ? null : await lockAdmins(tx);
    const before = await lockUser(tx, opts);
    if (sameRoles(before.roles, roles)) return { user: presentUser(before), events: [] };
    const wasAdmin = before.roles.includes('admin');
    if (admins && wasAdmin) {
      const others = admins.filter((a) => a.userId !== before.userId);
      if (others.length === 0) throw new AppError('CONFLICT', messages.users.lastAdmin);
      if (before.companyId === null && !others.some((a) => a.companyId === null)) throw new AppError('CONFLICT', messages.users.lastPlatformAdminRole);
    }
    const after = await saveProfile(tx, before.userId, { roles });
    await recordAudit(tx, {
      by: opts,
      action: 'user.roles',
      entityType: 'user',
      entityId: before.userId,
      before: { roles: before.roles },
      after: { roles },
    });
    return { user: presentUser(after), events: accessChanged(before.userId) };
  });
}

/** PUT /api/users/{id}: platform admins only. null makes the user its own company. */
export async function setUserCompany(db: Db, opts: Change & { companyId: string | null }): Promise<Changed> {
  if (!mayMoveBetweenCompanies(opts.actor)) throw new AppError('FORBIDDEN', messages.users.platformOnly);
  if (!isUuid(opts.userId)) throw userNotFound(opts.actor);
  const { companyId } = opts;
  return db.transaction(async (tx) => {
    const admins = companyId === null ? null : await lockAdmins(tx);
    const before = await lockUser(tx, opts);
    if (before.companyId === companyId) return { user: presentUser(before), events: [] };
    if (admins && before.roles.includes('admin') && before.companyId === null) {
      if (!admins.some((a) => a.userId !== before.userId && a.companyId === null)) throw new AppError('CONFLICT', messages.users.lastPlatformAdminCompany);
    }
    // A company id not seen before gets its record in this transaction (trigger companies_ensure, drizzle/0007).
    const after = await saveProfile(tx, before.userId, { companyId });
    await recordAudit(tx, {
      by: opts,
      action: 'user.company',
      entityType: 'user',
      entityId: before.userId,
      before: { companyId: before.companyId },
      after: { companyId },
    });
    return { user: presentUser(after), events: accessChanged(before.userId) };
  });
}

/**
 * Locks every admin's profile, always in the same order, before the target's: two admins demoting
 * each other then queue instead of deadlocking, and the second one counts what the first left.
 */
async function lockAdmins(tx: Tx): Promise<{ userId: string; companyId: string | null }[]> {
  return tx
    .select({ userId: userProfiles.userId, companyId: userProfiles.companyId })
    .from(userProfiles)
    .where(sql`'admin' = any(${userProfiles.roles})`)
    .orderBy(userProfiles.userId)
    .for('update');
}

async function lockUser(tx: Tx, opts: Change): Promise<ItemRow> {
  const [row] = await tx.select(itemColumns).from(userProfiles).where(eq(userProfiles.userId, opts.userId)).for('update');
  if (!row || !mayManage(opts.actor, row)) throw userNotFound(opts.actor);
  return row;
}

async function saveProfile(tx: Tx, userId: string, set: { roles?: Role[]; companyId?: string | null }): Promise<ItemRow> {
  await tx
    .update(userProfiles)
    .set({ ...set, updatedAt: new Date() })
    .where(eq(userProfiles.userId, userId));
  // Read after the statement: its trigger may have just created the company record.
  const [row] = await tx.select(itemColumns).from(userProfiles).where(eq(userProfiles.userId, userId));
  if (!row) throw new Error('profile update returned nothing');
  return row;
}

function sameRoles(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((r) => b.includes(r));
}

/** Email, names, company name, companyId (or the uid standing in for it) and WhatsApp, ignoring case and accents. */
function searchFilter(search: string): SQL | undefined {
  const needle = foldText(search);
  if (!needle) return undefined;
  const p = userProfiles;
  const haystack = sql`concat_ws(' | ', ${p.email}, concat_ws(' ', ${p.firstName}, ${p.lastName}), ${p.displayName}, ${p.companyName}, ${itemColumns.companyName}, coalesce(${p.companyId}, ${p.userId}::text), ${p.whatsapp})`;
  const digits = needle.replace(/\D/g, '');
  // '33 1234 5678' finds '+523312345678'.
  const byPhone = /^[\d\s()+.-]+$/.test(needle) && digits.length >= 3 ? sql`${p.whatsapp} like ${`%${digits}%`}` : undefined;
  return or(sql`${folded(haystack)} like ${`%${escapeLike(needle)}%`}`, byPhone);
}
