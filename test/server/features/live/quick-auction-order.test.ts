import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveSessionDetail, LotView } from '../../../../src/domain/live.js';
import { lotFacts, splitLots } from '../../../../src/domain/live-public.js';
import { type Actor, buildActor } from '../../../support/actors.js';
import { buildAuction, buildLot, buildSession } from '../../../support/factories.js';
import { injectAs, startTestServer, type TestServer } from '../../../support/server.js';

/**
 * A quick auction goes on the block next: the order right after the current lot, the queue behind
 * it moving down one, so the lots still to come stay upcoming (SPEC §4 makes every lot ordered
 * before the current one past). Without a current lot it is appended.
 */

const COMPANY = 'orden-vivo';
let server: TestServer;
let seller: Actor;

beforeAll(async () => {
  server = await startTestServer({ listen: false });
  seller = await buildActor(server, { email: 'vende@orden.mx', name: 'Olivia Orden', roles: ['seller'], companyId: COMPANY });
}, 60_000);
afterAll(async () => server?.close());

/** A session with lots Uno..Cuatro, waiting for their timers; `current` (1-based) is set through 'Establecer actual'. */
async function show(current: number | null) {
  const db = server.ctx.db;
  const session = await buildSession(db, { sellerId: seller.id, companyId: COMPANY });
  const lots = [];
  for (const name of ['Uno', 'Dos', 'Tres', 'Cuatro']) {
    const auction = await buildAuction(db, { name, companyId: COMPANY, sellerId: seller.id, status: 'pending' });
    lots.push(await buildLot(db, { sessionId: session.id, auctionId: auction.id }));
  }
  if (current !== null) {
    const res = await injectAs(server, seller, 'POST', `/api/live-sessions/${session.id}/current`, { lotId: lots[current - 1]?.id });
    expect(res.statusCode, res.body).toBe(200);
  }
  return session;
}

async function quick(sessionId: string, body: Record<string, unknown>): Promise<LiveSessionDetail> {
  const res = await injectAs(server, seller, 'POST', `/api/live-sessions/${sessionId}/quick-auction`, { startingPrice: 10, ...body });
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { detail: LiveSessionDetail }).detail;
}

const order = (d: LiveSessionDetail) => d.lots.map((l) => [l.auction.name, l.order]);
const names = (lots: LotView[]) => lots.map((l) => l.auction.name);
const facts = (d: LiveSessionDetail) => d.lots.map((l) => ({ ...l, ...lotFacts(l) }));

describe('a quick auction added to the session', () => {
  it('started now, goes right after the current lot and becomes current; the queue behind stays upcoming', async () => {
    const session = await show(2);
    const detail = await quick(session.id, { name: 'Rápida', timerSeconds: 30 });
    expect(order(detail)).toEqual([
      ['Uno', 1],
      ['Dos', 2],
      ['Rápida', 3],
      ['Tres', 4],
      ['Cuatro', 5],
    ]);
    expect(detail.session.currentLotId).toBe(detail.lots[2]?.id);
    const { upcoming, past } = splitLots(facts(detail), detail.session);
    expect(names(upcoming)).toEqual(['Rápida', 'Tres', 'Cuatro']);
    expect(names(past)).toEqual(['Uno', 'Dos']);
    // What the public page reads agrees.
    const publicView = (await injectAs(server, null, 'GET', `/api/live-sessions/${session.id}`)).json() as LiveSessionDetail;
    expect(order(publicView)).toEqual(order(detail));
  });

  it('without a timer, waits right after the current lot, which stays current', async () => {
    const session = await show(2);
    const before = (await injectAs(server, seller, 'GET', `/api/live-sessions/${session.id}`)).json() as LiveSessionDetail;
    const detail = await quick(session.id, { name: 'En espera' });
    expect(order(detail)).toEqual([
      ['Uno', 1],
      ['Dos', 2],
      ['En espera', 3],
      ['Tres', 4],
      ['Cuatro', 5],
    ]);
    expect(detail.session.currentLotId).toBe(before.session.currentLotId);
  });

  it('goes last after a current lot that is last, and last without a current lot', async () => {
    const atEnd = await quick((await show(4)).id, { name: 'Al final', timerSeconds: 15 });
    expect(order(atEnd).map(([name]) => name)).toEqual(['Uno', 'Dos', 'Tres', 'Cuatro', 'Al final']);
    const noCurrent = await quick((await show(null)).id, { name: 'Sin actual' });
    expect(order(noCurrent)).toEqual([
      ['Uno', 1],
      ['Dos', 2],
      ['Tres', 3],
      ['Cuatro', 4],
      ['Sin actual', 5],
    ]);
  });
});
