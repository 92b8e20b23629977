import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Role } from '../../src/domain/role-rules.js';
import { foldText } from '../../src/domain/text.js';
import { categories, uploads, userProfiles, users } from '../../src/server/db/schema.js';
import { createSession, SESSION_COOKIE } from '../../src/server/sessions/store.js';
import { cookieFrom, type TestServer } from './server.js';

export interface Actor {
  id: string;
  email: string;
  cookie: string;
}

/**
 * Signs in through the development form (the first account of a database becomes admin), then
 * gives the account exactly these roles and company, straight in the database.
 */
export async function signInAs(
  server: Pick<TestServer, 'app' | 'ctx'>,
  opts: { email: string; name?: string; roles: Role[]; companyId?: string | null; companyName?: string | null; completeProfile?: boolean },
): Promise<Actor> {
  const res = await server.app.inject({ method: 'POST', url: '/auth/dev', payload: { email: opts.email, name: opts.name ?? opts.email.split('@')[0] } });
  const cookie = cookieFrom(res.headers['set-cookie'], 'martillo_session');
  if (!cookie) throw new Error(`sign-in failed for ${opts.email}: ${res.statusCode} ${res.body}`);
  const [user] = await server.ctx.db.select({ id: users.id }).from(users).where(eq(users.email, opts.email.toLowerCase()));
  if (!user) throw new Error('no user');
  await server.ctx.db
    .update(userProfiles)
    .set({
      roles: opts.roles,
      companyId: opts.companyId ?? null,
      companyName: opts.companyName ?? null,
      // What bidding needs (SPEC §2's profile): a last name and a WhatsApp number with consent.
      ...(opts.completeProfile ? COMPLETE_PROFILE : {}),
    })
    .where(eq(userProfiles.userId, user.id));
  return { id: user.id, email: opts.email.toLowerCase(), cookie };
}

/** The profile fields bidding needs (a last name, WhatsApp with consent), as a completed profile form leaves them. */
const COMPLETE_PROFILE = { lastName: 'Prueba', whatsapp: '+523312345678', whatsappCountryCode: '+52', whatsappLocal: '3312345678', whatsappConsentGiven: true };

/**
 * A signed-in account made straight in the database, for tests that need many (the development
 * sign-in is rate-limited per address like any sign-in). Same session as a real sign-in.
 */
export async function buildActor(
  server: { ctx: Pick<TestServer['ctx'], 'db' | 'config'> },
  opts: { email: string; name: string; roles: Role[]; companyId?: string | null; completeProfile?: boolean; whatsapp?: string },
): Promise<Actor> {
  const email = opts.email.toLowerCase();
  const [user] = await server.ctx.db.insert(users).values({ email }).returning({ id: users.id });
  if (!user) throw new Error('no user');
  await server.ctx.db.insert(userProfiles).values({
    userId: user.id,
    email,
    firstName: opts.name.split(' ')[0] ?? opts.name,
    displayName: opts.name,
    roles: opts.roles,
    companyId: opts.companyId ?? null,
    ...(opts.completeProfile ? { ...COMPLETE_PROFILE, ...(opts.whatsapp ? { whatsapp: opts.whatsapp } : {}) } : {}),
  });
  const session = await createSession(server.ctx.db, { userId: user.id, days: 1, secret: server.ctx.config.sessionSecret });
  return { id: user.id, email, cookie: `${SESSION_COOKIE}=${session.token}` };
}

export interface Bidder extends Actor {
  name: string;
  whatsapp: string;
}

let bidders = 0;

/**
 * A buyer ready to bid (a complete profile and a session), made in the database, as many as a test
 * needs (the sign-in form is rate-limited per address). Each has its own e-mail and WhatsApp, so
 * a test can tell the winner by either.
 */
export async function buildBidder(server: { ctx: Pick<TestServer['ctx'], 'db' | 'config'> }): Promise<Bidder> {
  bidders++;
  const name = `Postor${bidders} Prueba`;
  const whatsapp = `+5233${String(10_000_000 + bidders).slice(-8)}`;
  const email = `postor-${bidders}-${randomUUID().slice(0, 6)}@ejemplo.mx`;
  const actor = await buildActor(server, { email, name, roles: ['buyer'], completeProfile: true, whatsapp });
  return { ...actor, name, whatsapp };
}

/** A category row, for auctions to point at. */
export async function buildCategory(server: Pick<TestServer, 'ctx'>, name: string): Promise<string> {
  const [row] = await server.ctx.db
    .insert(categories)
    .values({ name, nameKey: foldText(name) })
    .returning({ id: categories.id });
  if (!row) throw new Error('no category');
  return row.id;
}

/** An uploads row as POST /api/uploads would leave it (no file on disk), so an auction may use its URL. */
export async function buildUpload(server: Pick<TestServer, 'ctx'>, opts: { ownerId: string; companyId: string; name: string }): Promise<string> {
  const url = `/uploads/images/test/${opts.name}.jpg`;
  await server.ctx.db.insert(uploads).values({
    ownerId: opts.ownerId,
    companyId: opts.companyId,
    kind: 'auction_image',
    storageKey: `images/test/${opts.name}.jpg`,
    url,
    thumbnailKey: `images/test/${opts.name}-thumb.jpg`,
    thumbnailUrl: `/uploads/images/test/${opts.name}-thumb.jpg`,
    contentType: 'image/jpeg',
    bytes: 1000,
    width: 100,
    height: 100,
  });
  return url;
}
