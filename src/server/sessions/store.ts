import { createHmac, randomBytes } from 'node:crypto';
import { and, eq, gt, lt, sql } from 'drizzle-orm';
import { effectiveCompanyId, type Role } from '../../domain/role-rules.js';
import type { Db } from '../db/connect.js';
import { authSessions, userProfiles, users } from '../db/schema.js';

/**
 * Sign-in sessions, below the features: the auth feature creates and deletes them, every HTTP
 * request (http/auth-hooks.ts) and socket (realtime/index.ts) resolves its cookie here, and the
 * policies read the CurrentUser they answer.
 */
export const SESSION_COOKIE = 'martillo_session';

/** The signed-in person as every route and socket sees them. */
export interface CurrentUser {
  id: string;
  email: string;
  displayName: string | null;
  roles: Role[];
  /** The profile's companyId, null for a platform admin or a user who is their own company. */
  profileCompanyId: string | null;
  /** SPEC §3: companyId falls back to the user's id. */
  companyId: string;
  companyName: string | null;
  sessionId: string;
}

/**
 * Tokens are stored as HMAC-SHA256 keyed with SESSION_SECRET: a copy of the database alone
 * cannot be matched against cookies, and changing the secret signs everyone out.
 */
export function hashToken(token: string, secret: string): string {
  return createHmac('sha256', secret).update(token).digest('hex');
}

export async function createSession(
  db: Db,
  opts: { userId: string; days: number; secret: string; userAgent?: string | undefined; ip?: string | undefined },
): Promise<{ token: string; sessionId: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + opts.days * 86_400_000);
  const [row] = await db
    .insert(authSessions)
    .values({ tokenHash: hashToken(token, opts.secret), userId: opts.userId, expiresAt, userAgent: opts.userAgent?.slice(0, 300) ?? null, ip: opts.ip ?? null })
    .returning({ id: authSessions.id });
  if (!row) throw new Error('session insert returned nothing');
  return { token, sessionId: row.id, expiresAt };
}

/** Looks up a cookie token; an unknown or expired one is simply nobody. */
export async function resolveSession(db: Db, token: string | undefined, secret: string): Promise<CurrentUser | null> {
  return (await lookupSession(db, token, secret))?.user ?? null;
}

/** The session's user and when the session expires (the cache keeps an entry no longer than that). */
export async function lookupSession(db: Db, token: string | undefined, secret: string): Promise<{ user: CurrentUser; expiresAt: number } | null> {
  if (!token || token.length > 200) return null;
  const [row] = await db
    .select({
      sessionId: authSessions.id,
      lastSeenAt: authSessions.lastSeenAt,
      expiresAt: authSessions.expiresAt,
      id: users.id,
      email: users.email,
      displayName: userProfiles.displayName,
      roles: userProfiles.roles,
      companyId: userProfiles.companyId,
      companyName: userProfiles.companyName,
    })
    .from(authSessions)
    .innerJoin(users, eq(users.id, authSessions.userId))
    .leftJoin(userProfiles, eq(userProfiles.userId, users.id))
    .where(and(eq(authSessions.tokenHash, hashToken(token, secret)), gt(authSessions.expiresAt, sql`now()`)))
    .limit(1);
  if (!row) return null;
  if (Date.now() - row.lastSeenAt.getTime() > 3_600_000) {
    await db.update(authSessions).set({ lastSeenAt: new Date() }).where(eq(authSessions.id, row.sessionId));
  }
  const user: CurrentUser = {
    id: row.id,
    email: row.email,
    displayName: row.displayName ?? null,
    ...accessOf(row.id, row),
    sessionId: row.sessionId,
  };
  return { user, expiresAt: row.expiresAt.getTime() };
}

export async function deleteSession(db: Db, sessionId: string): Promise<void> {
  await db.delete(authSessions).where(eq(authSessions.id, sessionId));
}

export async function deleteExpiredSessions(db: Db): Promise<void> {
  await db.delete(authSessions).where(lt(authSessions.expiresAt, sql`now()`));
}

/** What a user's sockets are granted by, read afresh when an admin changes it (realtime's refreshUserAccess). */
export async function loadAccess(db: Db, userId: string): Promise<Access> {
  const [row] = await db
    .select({ roles: userProfiles.roles, companyId: userProfiles.companyId, companyName: userProfiles.companyName })
    .from(userProfiles)
    .where(eq(userProfiles.userId, userId));
  return accessOf(userId, row);
}

type Access = Pick<CurrentUser, 'roles' | 'profileCompanyId' | 'companyId' | 'companyName'>;

/** What a user's profile grants, as a session and a socket read it. */
function accessOf(userId: string, profile: { roles: string[] | null; companyId: string | null; companyName: string | null } | undefined): Access {
  return {
    // SPEC §6: a missing profile means an empty role list, which means no access.
    roles: (profile?.roles ?? []) as Role[],
    profileCompanyId: profile?.companyId ?? null,
    companyId: effectiveCompanyId(userId, profile?.companyId),
    companyName: profile?.companyName ?? null,
  };
}
