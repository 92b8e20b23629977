/** What a live show needs before it starts: a seller, the lots, buyers with sessions, and the session made through the API. */
import { sql } from 'drizzle-orm';
import type { TimerMode } from '../../src/domain/bid-rules.js';
import type { LiveSessionDetail } from '../../src/domain/live.js';
import type { Database } from '../../src/server/db/connect.js';
import { auctions, authSessions, prebids, userProfiles, users } from '../../src/server/db/schema.js';
import { hashToken } from '../../src/server/sessions/store.js';
import { seedBuyers } from '../support.js';
import { expectOk, requester } from './http.js';

export const STARTING_PRICE = 500;

export interface Seeded {
  sellerCookie: string;
  auctionIds: string[];
  buyerIds: string[];
  buyerCookies: string[];
  /** Other buyers (complete profiles, so they may write in the chat), apart from the bidders. */
  chatterCookies: string[];
}

/** A seller with a sign-in session, `lots` pending auctions of theirs, `users` bidders and `chatters` chatters. */
export async function seed(database: Database, opts: { secret: string; lots: number; users: number; chatters: number }): Promise<Seeded> {
  const db = database.db;
  const [seller] = await db.insert(users).values({ email: 'vendedora@show.mx' }).returning({ id: users.id });
  const sellerId = (seller as { id: string }).id;
  await db.insert(userProfiles).values({
    userId: sellerId,
    email: 'vendedora@show.mx',
    firstName: 'Vendedora',
    lastName: 'Show',
    displayName: 'Remates del Show',
    roles: ['seller'],
    companyId: 'remates-show',
    companyName: 'Remates del Show',
    whatsapp: '+523312345678',
    whatsappCountryCode: '+52',
    whatsappLocal: '3312345678',
    whatsappConsentGiven: true,
    whatsappConsentAt: new Date(),
  });
  const sellerCookie = 'bench-live-show-seller-cookie-0123456789abcdef';
  await db.insert(authSessions).values({ tokenHash: hashToken(sellerCookie, opts.secret), userId: sellerId, expiresAt: new Date(Date.now() + 86_400_000) });
  const inserted = await db
    .insert(auctions)
    .values(
      Array.from({ length: opts.lots }, (_, i) => ({
        name: `Lote ${i + 1} del show: reloj, cámara o disco de vinilo`,
        description: 'Lote del bench de subastas en vivo.',
        startingPrice: STARTING_PRICE,
        status: 'pending' as const,
        sellerId,
        companyId: 'remates-show',
      })),
    )
    .returning({ id: auctions.id });
  const buyers = await seedBuyers(database, opts.secret, opts.users + opts.chatters);
  await db.execute(sql`analyze`);
  return {
    sellerCookie,
    auctionIds: inserted.map((a) => a.id),
    buyerIds: buyers.userIds.slice(0, opts.users),
    buyerCookies: buyers.cookies.slice(0, opts.users),
    chatterCookies: buyers.cookies.slice(opts.users),
  };
}

/** The session and its lots, made as the seller makes them in the Live Hub. */
export async function prepareShow(
  base: string,
  seeded: Seeded,
  opts: { timerS: number; antiSnipeS: number; timerMode: TimerMode | null; counterBidWindowS: number; counterBidResetS: number },
): Promise<{ sessionId: string; lotIds: string[] }> {
  // Without TIMER_MODE the session is made as before timer formats: ANTI_SNIPE alone decides.
  const format = opts.timerMode
    ? { timerMode: opts.timerMode, counterBidWindowSeconds: opts.counterBidWindowS, counterBidResetSeconds: opts.counterBidResetS }
    : {};
  const client = requester(base, 4);
  try {
    const created = JSON.parse(
      await expectOk(
        client.request('POST', '/api/live-sessions', seeded.sellerCookie, {
          title: 'Show del bench',
          scheduledAt: Date.now(),
          biddingConfig: { minIncrement: 20, antiSnipeSeconds: opts.antiSnipeS, timerSecondsDefault: opts.timerS, ...format },
        }),
        'create session',
      ),
    ) as LiveSessionDetail;
    const sessionId = created.session.id;
    let detail = created;
    for (const auctionId of seeded.auctionIds) {
      detail = JSON.parse(
        await expectOk(client.request('POST', `/api/live-sessions/${sessionId}/lots`, seeded.sellerCookie, { auctionId }), 'add lot'),
      ) as LiveSessionDetail;
    }
    const byAuction = new Map(detail.lots.map((l) => [l.auctionId, l.id]));
    return { sessionId, lotIds: seeded.auctionIds.map((id) => byAuction.get(id) as string) };
  } finally {
    client.close();
  }
}

/**
 * 'Puja anticipada' on every lot before the show opens it: `perLot` buyers each leave a maximum
 * (the starting price up to $1,000 above it, in $20 steps), a second apart in line. Rows go
 * straight into `prebids`, as the pre-bid route would leave them; the lot's opening enters them
 * into the engine (src/server/features/prebids/enter.ts). Answers how many were written.
 */
export async function seedPrebids(database: Database, seeded: Seeded, perLot: number): Promise<number> {
  if (perLot <= 0) return 0;
  const now = Date.now();
  const values = seeded.auctionIds.flatMap((auctionId, lot) =>
    Array.from({ length: Math.min(perLot, seeded.buyerIds.length) }, (_, j) => ({
      auctionId,
      bidderId: seeded.buyerIds[(lot * perLot + j) % seeded.buyerIds.length] as string,
      // A spread of maximums that depends on the lot and the place in line, no randomness to replay.
      maxAmount: STARTING_PRICE + 20 * ((lot * 7 + j * 13) % 51),
      createdAt: new Date(now - (perLot - j) * 1000),
    })),
  );
  for (let i = 0; i < values.length; i += 500) await database.db.insert(prebids).values(values.slice(i, i + 500));
  return values.length;
}
