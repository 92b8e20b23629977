import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../../src/server/db/connect.js';
import { auctions, liveLots, liveSessions, payments, userProfiles, users } from '../../src/server/db/schema.js';

/** One factories module (STYLE.md): each builder inserts a valid row and lets the test override fields. */
export async function buildUser(db: Db, over: { email?: string; roles?: string[]; companyId?: string | null } = {}) {
  const email = over.email ?? `u-${randomUUID().slice(0, 8)}@ejemplo.mx`;
  const [user] = await db.insert(users).values({ email }).returning();
  if (!user) throw new Error('no user');
  await db.insert(userProfiles).values({ userId: user.id, email, firstName: 'Prueba', roles: over.roles ?? ['buyer'], companyId: over.companyId ?? null });
  return user;
}

export async function buildAuction(db: Db, over: Partial<typeof auctions.$inferInsert> = {}) {
  const [row] = await db
    .insert(auctions)
    .values({ name: 'Bicicleta de montaña', description: 'Rodada 29', startingPrice: 500, companyId: 'acme', ...over })
    .returning();
  if (!row) throw new Error('no auction');
  return row;
}

export async function buildPayment(db: Db, over: Partial<typeof payments.$inferInsert> & { winnerId: string }) {
  const [row] = await db
    .insert(payments)
    .values({ winnerName: 'Ganador', companyId: 'acme', ...over })
    .returning();
  if (!row) throw new Error('no payment');
  return row;
}

export async function buildSession(db: Db, over: Partial<typeof liveSessions.$inferInsert> & { sellerId: string }) {
  const [row] = await db
    .insert(liveSessions)
    .values({ title: 'Subasta del jueves', companyId: 'acme', scheduledAt: new Date(), ...over })
    .returning();
  if (!row) throw new Error('no session');
  return row;
}

/** A lot of a session, appended after its last one unless `order` is given. */
export async function buildLot(db: Db, over: Partial<typeof liveLots.$inferInsert> & { sessionId: string; auctionId: string }) {
  const existing = await db.select({ order: liveLots.order }).from(liveLots).where(eq(liveLots.sessionId, over.sessionId));
  const [row] = await db
    .insert(liveLots)
    .values({ order: existing.length + 1, ...over })
    .returning();
  if (!row) throw new Error('no lot');
  return row;
}
