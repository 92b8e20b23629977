import { eq, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auctions, liveLots } from '../../../../src/server/db/schema.js';
import { type Actor, buildActor } from '../../../support/actors.js';
import { buildAuction, buildLot, buildSession } from '../../../support/factories.js';
import { injectAs, startTestServer, type TestServer } from '../../../support/server.js';

/**
 * Quick auctions (placed after the current lot), removals, reorders and lots closing, all at once
 * on one session: every answer is a success or a 409, never a 500 (a deadlock between the Live
 * Hub's locks and a close's), and the orders stay unique and dense.
 */

const COMPANY = 'carrera-lotes';
let server: TestServer;
let seller: Actor;

beforeAll(async () => {
  server = await startTestServer({ listen: false });
  seller = await buildActor(server, { email: 'vende@carrera.mx', name: 'Carla Carrera', roles: ['seller'], companyId: COMPANY });
}, 60_000);
afterAll(async () => server?.close());

const lotsOf = (sessionId: string) => server.ctx.db.select().from(liveLots).where(eq(liveLots.sessionId, sessionId)).orderBy(liveLots.order);

describe('lot changes racing with closes', () => {
  it('never deadlock, and keep the orders dense', async () => {
    for (let round = 0; round < 3; round++) {
      const db = server.ctx.db;
      const session = await buildSession(db, { sellerId: seller.id, companyId: COMPANY });
      const lots = [];
      for (let i = 0; i < 8; i++) {
        // Half the lots are due: the close takes them while the seller changes the list.
        const due = i % 2 === 0;
        const auction = await buildAuction(db, {
          name: `Lote ${round}-${i}`,
          companyId: COMPANY,
          sellerId: seller.id,
          status: due ? 'live' : 'pending',
          endTime: due ? new Date(Date.now() - 1000) : null,
        });
        lots.push(await buildLot(db, { sessionId: session.id, auctionId: auction.id }));
      }
      const current = await injectAs(server, seller, 'POST', `/api/live-sessions/${session.id}/current`, { lotId: lots[1]?.id });
      expect(current.statusCode, current.body).toBe(200);
      const ids = lots.map((l) => l.id);
      const close = () => db.transaction(async (tx) => tx.execute(sql`select close_due_auctions(100)`));
      const answers = await Promise.all<LightMyRequestResponse | unknown>([
        close(),
        injectAs(server, seller, 'POST', `/api/live-sessions/${session.id}/quick-auction`, { name: `Rápida ${round}a`, startingPrice: 10 }),
        injectAs(server, seller, 'PUT', `/api/live-sessions/${session.id}/lots/order`, { lotIds: [...ids].reverse() }),
        injectAs(server, seller, 'DELETE', `/api/live-sessions/${session.id}/lots/${ids[3]}`),
        injectAs(server, seller, 'POST', `/api/live-sessions/${session.id}/quick-auction`, { name: `Rápida ${round}b`, startingPrice: 10, timerSeconds: 15 }),
        close(),
        injectAs(server, seller, 'DELETE', `/api/live-sessions/${session.id}/lots/${ids[5]}`),
        injectAs(server, seller, 'PUT', `/api/live-sessions/${session.id}/lots/order`, { lotIds: ids }),
      ]);
      for (const answer of answers) {
        if (answer && typeof answer === 'object' && 'statusCode' in answer) {
          const res = answer as LightMyRequestResponse;
          expect([200, 201, 409], res.body).toContain(res.statusCode);
        }
      }
      const after = await lotsOf(session.id);
      expect(after.map((l) => l.order)).toEqual(after.map((_, i) => i + 1));
      const names = (await db.select({ name: auctions.name }).from(auctions)).map((a) => a.name);
      expect(names).toEqual(expect.arrayContaining([`Rápida ${round}a`, `Rápida ${round}b`]));
    }
  });
});
