import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveSessionList } from '../../../../src/domain/live.js';
import { liveSessions } from '../../../../src/server/db/schema.js';
import { type Actor, buildActor } from '../../../support/actors.js';
import { caller, startTestServer, type TestServer } from '../../../support/server.js';

/**
 * The Hub's list of sessions has no pages: past its 500 rows, a company that has run shows for years
 * still sees its upcoming shows, the one on now and its latest past ones, not its first 500.
 */

const COMPANY = 'remates-de-siempre';
const DAY = 86_400_000;
let server: TestServer;
let seller: Actor;
const call = caller(() => server);

beforeAll(async () => {
  server = await startTestServer();
  seller = await buildActor(server, { email: 'siempre@remates.mx', name: 'Sara Siempre', roles: ['seller'], companyId: COMPANY });
  const now = Date.now();
  // 520 past shows, one a day, the oldest first; one live show scheduled long ago; two upcoming.
  const past = Array.from({ length: 520 }, (_, i) => ({
    title: `Show ${i + 1}`,
    scheduledAt: new Date(now - (600 - i) * DAY),
    status: 'ended' as const,
    companyId: COMPANY,
    sellerId: seller.id,
  }));
  await server.ctx.db
    .insert(liveSessions)
    .values([
      ...past,
      { title: 'En vivo desde hace rato', scheduledAt: new Date(now - 700 * DAY), status: 'live', companyId: COMPANY, sellerId: seller.id },
      { title: 'Mañana', scheduledAt: new Date(now + DAY), status: 'scheduled', companyId: COMPANY, sellerId: seller.id },
      { title: 'La otra semana', scheduledAt: new Date(now + 7 * DAY), status: 'scheduled', companyId: COMPANY, sellerId: seller.id },
    ]);
}, 60_000);
afterAll(async () => server?.close());

describe('GET /api/live-sessions past its 500 rows', () => {
  it('keeps the show on now, every upcoming show and the latest past ones, by date', async () => {
    const res = await call(seller, 'GET', '/api/live-sessions');
    expect(res.statusCode, res.body).toBe(200);
    const titles = (res.json() as LiveSessionList).sessions.map((s) => s.title);
    expect(titles).toHaveLength(500);
    expect(titles[0]).toBe('En vivo desde hace rato');
    expect(titles.slice(-3)).toEqual(['Show 520', 'Mañana', 'La otra semana']);
    // The oldest past shows are the ones left out.
    expect(titles).not.toContain('Show 1');
    expect(titles).toContain('Show 24');
    expect(titles).not.toContain('Show 23');
  });
});
