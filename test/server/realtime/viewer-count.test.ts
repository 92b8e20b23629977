import type { Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { LiveSessionDetail } from '../../../src/domain/live.js';
import type { ViewerCountEvent } from '../../../src/domain/realtime.js';
import { buildActor } from '../../support/actors.js';
import { buildSession } from '../../support/factories.js';
import { startTestServer, type TestServer } from '../../support/server.js';
import { connected, connectSocket } from '../../support/sockets.js';
import { eventually } from '../../support/wait.js';

/**
 * The viewer count every screen shows: pages following the show (the seller's Hub left out), each
 * address counting for at most VIEWERS_PER_ADDRESS of them, behind a proxy (TRUST_PROXY) by its
 * forwarded address. A page that reloads shows the same count as everyone else.
 */

const PER_ADDRESS = 2;

describe('the viewer count', () => {
  let server: TestServer;
  let sellerId: string;
  const open: Socket[] = [];
  /** The last count each socket heard, per session. */
  const heard = new Map<Socket, number>();

  beforeAll(async () => {
    server = await startTestServer({ env: { TRUST_PROXY: 'true', VIEWERS_PER_ADDRESS: String(PER_ADDRESS) } });
    sellerId = (await buildActor(server, { email: 'vende@conteo.mx', name: 'Carla Vendedora', roles: ['seller'], companyId: 'conteo' })).id;
  }, 60_000);
  afterEach(() => {
    for (const s of open.splice(0)) s.disconnect();
    heard.clear();
  });
  afterAll(async () => server?.close());

  /** A page of the show from `from`, in its room (the Hub as `host`), remembering what count it shows. */
  async function page(sessionId: string, from: string, opts: { host?: boolean } = {}): Promise<Socket> {
    const s = connectSocket(server.url, { forwardedFor: from });
    open.push(s);
    s.on('viewerCount', (e: ViewerCountEvent) => {
      if (e.sessionId === sessionId) heard.set(s, e.count);
    });
    await connected(s);
    await s.timeout(5000).emitWithAck('joinSession', { sessionId, ...(opts.host ? { host: true } : {}) });
    return s;
  }
  /** Resolves once every socket shows `count` (the test's own timeout bounds the wait). */
  const allShow = (sockets: Socket[], count: number): Promise<void> => eventually(() => sockets.every((s) => heard.get(s) === count), { intervalMs: 25 });
  const detailCount = async (sessionId: string) =>
    ((await server.app.inject({ method: 'GET', url: `/api/live-sessions/${sessionId}` })).json() as LiveSessionDetail).viewerCount;

  it('is the same on a reloaded page as on every other screen', async () => {
    const { id } = await buildSession(server.ctx.db, { sellerId, companyId: 'conteo' });
    const hub = await page(id, '198.51.100.9', { host: true });
    const phoneA = await page(id, '198.51.100.1');
    const phoneB = await page(id, '198.51.100.2');
    await allShow([hub, phoneA, phoneB], 2);

    // Phone A reloads: its old page goes, the new one comes. Nothing changed, and it shows 2 too.
    phoneA.disconnect();
    const reloaded = await page(id, '198.51.100.1');
    await allShow([hub, reloaded, phoneB], 2);
    expect(await detailCount(id)).toBe(2);

    // Phone B reloads, and its new page arrives before the old one's leave: every screen still ends on 2.
    const reloadedB = await page(id, '198.51.100.2');
    phoneB.disconnect();
    await allShow([hub, reloaded, reloadedB], 2);
  });

  it('counts pages, and one address as at most VIEWERS_PER_ADDRESS of them', async () => {
    const { id } = await buildSession(server.ctx.db, { sellerId, companyId: 'conteo' });
    const hub = await page(id, '198.51.100.9', { host: true });
    // One machine opens six pages (a script's sockets); two other addresses one page each.
    const script = [];
    for (let i = 0; i < 6; i++) script.push(await page(id, '203.0.113.66'));
    const others = [await page(id, '198.51.100.3'), await page(id, '198.51.100.4')];
    await allShow([hub, ...script, ...others], PER_ADDRESS + 2);
    expect(server.ctx.realtime.viewerCount(id)).toBe(PER_ADDRESS + 2);
    expect(await detailCount(id)).toBe(PER_ADDRESS + 2);
  });
});
