import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../../src/server/db/connect.js';
import { auctions, companies, liveLotRuns, liveLots, liveSessions, payments, userProfiles, users } from '../../src/server/db/schema.js';

/**
 * One factories module (STYLE.md): each builder inserts a valid row and lets the test override
 * fields, and builds what the row needs when the test does not give it (a lot needs a session and
 * an auction, a session needs a seller, a seller needs a company; a payment needs its winner).
 */

const short = () => randomUUID().slice(0, 8);

/** A company record (the one source of its name); an existing id is left as it is. */
export async function buildCompany(db: Db, over: Partial<typeof companies.$inferInsert> = {}) {
  const id = over.id ?? `empresa-${short()}`;
  await db
    .insert(companies)
    .values({ name: `Empresa ${id}`, ...over, id })
    .onConflictDoNothing();
  const [row] = await db.select().from(companies).where(eq(companies.id, id));
  if (!row) throw new Error('no company');
  return row;
}

export async function buildUser(db: Db, over: { email?: string; roles?: string[]; companyId?: string | null } = {}) {
  const email = over.email ?? `u-${short()}@ejemplo.mx`;
  const [user] = await db.insert(users).values({ email }).returning();
  if (!user) throw new Error('no user');
  await db.insert(userProfiles).values({ userId: user.id, email, firstName: 'Prueba', roles: over.roles ?? ['buyer'], companyId: over.companyId ?? null });
  return user;
}

/** A seller of a company, the company built when it has no record yet ('acme' unless given). */
export async function buildSeller(db: Db, over: { email?: string; companyId?: string } = {}) {
  const company = await buildCompany(db, { id: over.companyId ?? 'acme' });
  return buildUser(db, { ...(over.email ? { email: over.email } : {}), roles: ['seller', 'buyer'], companyId: company.id });
}

export async function buildAuction(db: Db, over: Partial<typeof auctions.$inferInsert> = {}) {
  const [row] = await db
    .insert(auctions)
    .values({ name: 'Bicicleta de montaña', description: 'Rodada 29', startingPrice: 500, companyId: 'acme', ...over })
    .returning();
  if (!row) throw new Error('no auction');
  return row;
}

/**
 * An auction the scheduler closed with one bid, won by `winnerId` (a buyer built when missing) at
 * `price`. Its name is fresh each time, so a search or a list can tell the auctions apart.
 */
export async function buildWonAuction(db: Db, over: Partial<typeof auctions.$inferInsert> & { price: number; winnerId?: string }) {
  const { price, winnerId, ...rest } = over;
  const winner = winnerId ?? (await buildUser(db)).id;
  return buildAuction(db, {
    name: `Lote ${short()}`,
    status: 'ended',
    endTime: new Date(Date.now() - 60_000),
    closedAt: new Date(),
    startingPrice: 100,
    currentPrice: price,
    bidCount: 1,
    currentWinnerId: winner,
    currentWinnerName: 'Juana Pérez',
    winnerWhatsapp: '+523312345678',
    ...rest,
  });
}

/** A payment, for its winner (a buyer built when missing). */
export async function buildPayment(db: Db, over: Partial<typeof payments.$inferInsert> = {}) {
  const winnerId = over.winnerId ?? (await buildUser(db)).id;
  const [row] = await db
    .insert(payments)
    .values({ winnerName: 'Ganador', companyId: 'acme', ...over, winnerId })
    .returning();
  if (!row) throw new Error('no payment');
  return row;
}

/** A live session, by its seller (one of the session's company built when missing). */
export async function buildSession(db: Db, over: Partial<typeof liveSessions.$inferInsert> = {}) {
  const companyId = over.companyId ?? 'acme';
  const sellerId = over.sellerId ?? (await buildSeller(db, { companyId })).id;
  const [row] = await db
    .insert(liveSessions)
    .values({ title: 'Subasta del jueves', scheduledAt: new Date(), ...over, companyId, sellerId })
    .returning();
  if (!row) throw new Error('no session');
  return row;
}

/**
 * A lot of a session, appended after its last one unless `order` is given. Without a session or an
 * auction, builds them: a new session, and an auction of the session's company and seller.
 * A lot whose auction already closed, or runs live on a clock (only the show's timer does that), was
 * on the block (a run), as a show leaves it; `onBlock: false` builds one whose auction closed
 * outside the show, while the lot waited in the queue.
 */
export async function buildLot(db: Db, over: Partial<typeof liveLots.$inferInsert> & { onBlock?: boolean } = {}) {
  const { onBlock, ...values } = over;
  const session = values.sessionId ? { id: values.sessionId } : await buildSession(db);
  const auctionId =
    values.auctionId ??
    (await (async () => {
      const [owner] = await db.select().from(liveSessions).where(eq(liveSessions.id, session.id));
      return (await buildAuction(db, { companyId: owner?.companyId ?? 'acme', sellerId: owner?.sellerId ?? null })).id;
    })());
  const existing = await db.select({ order: liveLots.order }).from(liveLots).where(eq(liveLots.sessionId, session.id));
  const [auction] = await db
    .select({ status: auctions.status, closedAt: auctions.closedAt, endTime: auctions.endTime })
    .from(auctions)
    .where(eq(auctions.id, auctionId));
  const closed = auction?.status === 'ended' || Boolean(auction?.closedAt);
  // 'live' with an end time: only the show's clock sets that, so it is on the block.
  const onShowClock = auction?.status === 'live' && auction.endTime !== null;
  const [row] = await db
    .insert(liveLots)
    .values({ order: existing.length + 1, ...values, sessionId: session.id, auctionId })
    .returning();
  if (!row) throw new Error('no lot');
  // Opened now: the latest run of its auction, as the show that closed it last.
  if (onBlock ?? (closed || onShowClock))
    await db.insert(liveLotRuns).values({ sessionId: session.id, lotId: row.id, auctionId, closedAt: closed ? new Date() : null });
  return row;
}
