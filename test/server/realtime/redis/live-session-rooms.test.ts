import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ViewerCountEvent } from '../../../../src/domain/realtime.js';
import { buildActor } from '../../../support/actors.js';
import { buildSession } from '../../../support/factories.js';
import { startTestServer, type TestServer } from '../../../support/server.js';
import { connected, connectSocket } from '../../../support/sockets.js';

/**
 * The session room across instances (a show runs on several): the viewer count is the room's sockets on
 * every instance, and promptUnmute from the seller on one instance reaches viewers on another.
 * Needs a Redis server (TEST_REDIS_URL), as shared-rooms.test.ts; .ci/run provides one.
 */
const redisUrl = process.env.TEST_REDIS_URL;

describe('two instances sharing rooms through Redis', () => {
  let a: TestServer;
  let b: TestServer;
  const open: Socket[] = [];

  beforeAll(async () => {
    a = await startTestServer({ env: { REDIS_URL: redisUrl as string, VIDEO_PROVIDER: 'agora' } });
    // Rooms and counts travel over Redis alone; the seller's socket and its check are on `a`.
    b = await startTestServer({ env: { REDIS_URL: redisUrl as string, VIDEO_PROVIDER: 'agora' } });
  }, 60_000);
  afterAll(async () => {
    for (const s of open) s.disconnect();
    await Promise.all([a?.close(), b?.close()]);
  });

  async function viewer(server: TestServer, sessionId: string, cookie?: string): Promise<Socket> {
    const s = connectSocket(server.url, cookie ? { cookie } : {});
    open.push(s);
    await connected(s);
    await new Promise((resolve) => s.emit('joinSession', { sessionId }, resolve));
    return s;
  }

  it('counts the viewers of a session on every instance, and each viewer hears the total', async () => {
    const seller = await buildActor(a, { email: 'vende@redis-vivo.mx', name: 'Rosa Vendedora', roles: ['seller'], companyId: 'redis-vivo' });
    const session = await buildSession(a.ctx.db, { sellerId: seller.id, companyId: 'redis-vivo' });
    const heard = (s: Socket, count: number) =>
      new Promise<void>((resolve) => {
        const handler = (e: ViewerCountEvent) => {
          if (e.sessionId !== session.id || e.count !== count) return;
          s.off('viewerCount', handler);
          resolve();
        };
        s.on('viewerCount', handler);
      });
    const onA = [await viewer(a, session.id), await viewer(a, session.id)];
    const onB = await viewer(b, session.id);
    await Promise.all([heard(onA[0] as Socket, 3), heard(onB, 3)]);
    expect(a.ctx.realtime.viewerCount(session.id)).toBe(3);
    expect(b.ctx.realtime.viewerCount(session.id)).toBe(3);
    const two = heard(onB, 2);
    (onA[1] as Socket).disconnect();
    await two;

    // The seller on A asks for sound; the viewer on B hears it.
    const sellerSocket = await viewer(a, session.id, seller.cookie);
    const prompt = new Promise((resolve) => onB.once('promptUnmute', resolve));
    const ack = await new Promise<{ ok: boolean }>((resolve) => sellerSocket.emit('promptUnmute', { sessionId: session.id }, resolve));
    expect(ack.ok).toBe(true);
    expect(await prompt).toEqual({ sessionId: session.id });
  });
});
