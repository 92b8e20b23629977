import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveSessionDetail, PickerAnswer } from '../../../../src/domain/live.js';
import { type Actor, type Bidder, buildActor, buildBidder } from '../../../support/actors.js';
import { buildAuction } from '../../../support/factories.js';
import { caller, placeBid, startTestServer, type TestServer } from '../../../support/server.js';

/**
 * 'Añadir Lote' offers the seller's pending auctions first (they wait for a show), then those
 * already running online on their own end time, newest first in each, and says how many bids each
 * has (the picker warns before adding one that runs with bids).
 */

const COMPANY = 'selector-pendientes';
let server: TestServer;
let seller: Actor;
let ana: Bidder;
const call = caller(() => server);

beforeAll(async () => {
  server = await startTestServer({ listen: false });
  seller = await buildActor(server, { email: 'vende@selector.mx', name: 'Selena Selector', roles: ['seller'], companyId: COMPANY });
  ana = await buildBidder(server);
}, 60_000);
afterAll(async () => server?.close());

describe('the picker', () => {
  it('lists pending auctions before running ones, newest first in each, with their bids', async () => {
    const db = server.ctx.db;
    const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000);
    const running = (name: string, minutesAgo: number) =>
      buildAuction(db, {
        companyId: COMPANY,
        sellerId: seller.id,
        name,
        nameTokens: ['pieza', name.toLowerCase()],
        status: 'active',
        endTime: new Date(Date.now() + 3_600_000),
        createdAt: at(minutesAgo),
      });
    const pending = (name: string, minutesAgo: number) =>
      buildAuction(db, {
        companyId: COMPANY,
        sellerId: seller.id,
        name,
        nameTokens: ['pieza', name.toLowerCase()],
        status: 'pending',
        createdAt: at(minutesAgo),
      });
    // The newest is running: it still comes after every pending one.
    const withBids = await running('Reloj', 1);
    const newestPending = await pending('Lámpara', 5);
    const quiet = await running('Radio', 10);
    const oldestPending = await pending('Jarrón', 20);
    expect((await placeBid(server, ana, withBids.id, { amount: withBids.startingPrice })).statusCode).toBe(201);

    const created = await call(seller, 'POST', '/api/live-sessions', { title: 'Selector', scheduledAt: Date.now() + 3_600_000 });
    const sessionId = (created.json() as LiveSessionDetail).session.id;
    for (const q of ['', 'pieza']) {
      const res = await call(seller, 'GET', `/api/live-sessions/${sessionId}/picker?q=${q}`);
      expect(res.statusCode, res.body).toBe(200);
      const items = (res.json() as PickerAnswer).items;
      expect(items.map((i) => i.id)).toEqual([newestPending.id, oldestPending.id, withBids.id, quiet.id]);
      expect(items.map((i) => i.bidCount)).toEqual([0, 0, 1, 0]);
    }
  });
});
