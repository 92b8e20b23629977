import { eq } from 'drizzle-orm';
import type { Role } from '../../src/domain/roles.js';
import { foldText } from '../../src/domain/text.js';
import { categories, uploads, userProfiles, users } from '../../src/server/db/schema.js';
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
  opts: { email: string; name?: string; roles: Role[]; companyId?: string | null; companyName?: string | null },
): Promise<Actor> {
  const res = await server.app.inject({ method: 'POST', url: '/auth/dev', payload: { email: opts.email, name: opts.name ?? opts.email.split('@')[0] } });
  const cookie = cookieFrom(res.headers['set-cookie'], 'martillo_session');
  if (!cookie) throw new Error(`sign-in failed for ${opts.email}: ${res.statusCode} ${res.body}`);
  const [user] = await server.ctx.db.select({ id: users.id }).from(users).where(eq(users.email, opts.email.toLowerCase()));
  if (!user) throw new Error('no user');
  await server.ctx.db
    .update(userProfiles)
    .set({ roles: opts.roles, companyId: opts.companyId ?? null, companyName: opts.companyName ?? null })
    .where(eq(userProfiles.userId, user.id));
  return { id: user.id, email: opts.email.toLowerCase(), cookie };
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
