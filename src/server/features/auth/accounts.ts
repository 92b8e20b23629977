import { and, count, eq, sql } from 'drizzle-orm';
import type { Role } from '../../../domain/role-rules.js';
import { recordAudit } from '../../audit.js';
import type { Db, Tx } from '../../db/connect.js';
import { userProfiles, users } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import { messages } from '../../messages.js';
import type { IdentityClaims } from '../../providers/identity/types.js';
import type { DomainEvent } from '../../realtime/publisher.js';

/** Serialises account creation, so "the first account is admin" holds under concurrent sign-ins. */
const ACCOUNT_LOCK_KEY = 7_301_924_002;

/**
 * Finds or creates the user of a verified OpenID Connect identity: matched by issuer and subject,
 * else linked by email. New users are buyers; an ADMIN_EMAILS address gains admin at every sign-in.
 * A pending invitation changes nothing here, for a new account as for an old one: the person
 * accepts or declines it after signing in (users/invitation-answers.ts). The events are for the
 * caller to publish.
 */
export async function signInWithIdentity(
  db: Db,
  claims: IdentityClaims,
  opts: { adminEmails: readonly string[]; ip?: string | undefined; requestId?: string | undefined },
): Promise<{ userId: string; events: DomainEvent[] }> {
  const email = claims.email.toLowerCase();
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${ACCOUNT_LOCK_KEY})`);
    const [byIdentity] = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.oidcIssuer, claims.issuer), eq(users.oidcSubject, claims.subject)));
    const [byEmail] = byIdentity ? [byIdentity] : await tx.select({ id: users.id }).from(users).where(eq(users.email, email));
    await refuseSimulated(tx, byEmail?.id);
    const identity = {
      oidcIssuer: claims.issuer,
      oidcSubject: claims.subject,
      email,
      emailVerified: claims.emailVerified,
      avatarUrl: claims.picture ?? null,
      lastSignInAt: new Date(),
    };
    let userId: string;
    if (byEmail) {
      userId = byEmail.id;
      await tx.update(users).set(identity).where(eq(users.id, userId));
      // Google's name is the source of the read-only first name; the user owns the rest.
      await tx
        .update(userProfiles)
        .set({ email, firstName: claims.givenName ?? claims.name ?? null, displayName: claims.name ?? null, updatedAt: new Date() })
        .where(eq(userProfiles.userId, userId));
    } else {
      userId = await createUser(tx, {
        ...identity,
        firstName: claims.givenName ?? claims.name ?? null,
        lastName: claims.familyName ?? null,
        displayName: claims.name ?? null,
        roles: ['buyer'],
      });
    }
    return { userId, events: await grantAdminIfListed(tx, userId, email, opts) };
  });
}

/**
 * Development sign-in: an email and a name, no proof of identity. Only registered when no
 * Google client is configured outside production. The first account of an empty database is admin.
 * Invitations are answered after signing in, as with Google.
 */
export async function signInForDevelopment(
  db: Db,
  input: { email: string; name: string },
  opts: { adminEmails: readonly string[]; ip?: string | undefined; requestId?: string | undefined },
): Promise<{ userId: string; events: DomainEvent[] }> {
  const email = input.email.toLowerCase();
  const name = input.name.trim().replace(/\s+/g, ' ');
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${ACCOUNT_LOCK_KEY})`);
    const [existing] = await tx.select({ id: users.id }).from(users).where(eq(users.email, email));
    await refuseSimulated(tx, existing?.id);
    let userId: string;
    if (existing) {
      userId = existing.id;
      await tx.update(users).set({ lastSignInAt: new Date() }).where(eq(users.id, userId));
    } else {
      const [{ n } = { n: 0 }] = await tx.select({ n: count() }).from(users).where(eq(users.isSimulated, false));
      const [first = name, ...rest] = name.split(' ');
      userId = await createUser(tx, {
        email,
        emailVerified: false,
        lastSignInAt: new Date(),
        firstName: first,
        lastName: rest.join(' ') || null,
        displayName: name,
        roles: n === 0 ? ['admin', 'buyer'] : ['buyer'],
      });
      if (n === 0) {
        await recordAudit(tx, {
          by: { actor: { id: userId }, ip: opts.ip ?? null, requestId: opts.requestId ?? null },
          action: 'roles.grant_first_admin',
          entityType: 'user',
          entityId: userId,
          after: { roles: ['admin', 'buyer'] },
        });
      }
    }
    return { userId, events: await grantAdminIfListed(tx, userId, email, opts) };
  });
}

/** A rehearsal's simulated bidders (live/rehearsal-bidders.ts) are played by the server: nobody signs in as one. */
async function refuseSimulated(tx: Tx, userId: string | undefined): Promise<void> {
  if (!userId) return;
  const [found] = await tx.select({ simulated: users.isSimulated }).from(users).where(eq(users.id, userId));
  if (found?.simulated) throw new AppError('FORBIDDEN', messages.users.simulatedSignIn);
}

async function createUser(
  tx: Tx,
  u: {
    email: string;
    emailVerified: boolean;
    lastSignInAt: Date;
    oidcIssuer?: string;
    oidcSubject?: string;
    avatarUrl?: string | null;
    firstName: string | null;
    lastName: string | null;
    displayName: string | null;
    roles: Role[];
  },
): Promise<string> {
  const [row] = await tx
    .insert(users)
    .values({
      email: u.email,
      emailVerified: u.emailVerified,
      lastSignInAt: u.lastSignInAt,
      oidcIssuer: u.oidcIssuer ?? null,
      oidcSubject: u.oidcSubject ?? null,
      avatarUrl: u.avatarUrl ?? null,
    })
    .returning({ id: users.id });
  if (!row) throw new Error('user insert returned nothing');
  await tx
    .insert(userProfiles)
    .values({ userId: row.id, email: u.email, firstName: u.firstName, lastName: u.lastName, displayName: u.displayName, roles: u.roles });
  return row.id;
}

/** The account's other open sessions and sockets follow a grant (the returned event). */
async function grantAdminIfListed(
  tx: Tx,
  userId: string,
  email: string,
  opts: { adminEmails: readonly string[]; ip?: string | undefined; requestId?: string | undefined },
): Promise<DomainEvent[]> {
  if (!opts.adminEmails.includes(email)) return [];
  const [profile] = await tx.select({ roles: userProfiles.roles }).from(userProfiles).where(eq(userProfiles.userId, userId));
  const roles = profile?.roles ?? [];
  if (roles.includes('admin')) return [];
  const next = [...roles, 'admin'];
  await tx.update(userProfiles).set({ roles: next, updatedAt: new Date() }).where(eq(userProfiles.userId, userId));
  await recordAudit(tx, {
    // The system grants it (ADMIN_EMAILS), from the address of the sign-in that triggered it.
    by: { actor: null, ip: opts.ip ?? null, requestId: opts.requestId ?? null },
    action: 'roles.grant_admin_emails',
    entityType: 'user',
    entityId: userId,
    before: { roles },
    after: { roles: next },
  });
  return [{ type: 'userAccessChanged', userId }];
}
