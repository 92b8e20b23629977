import { eq, sql } from 'drizzle-orm';
import type { Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RoomAck, SessionStatusEvent } from '../../../src/domain/realtime.js';
import { liveSessions } from '../../../src/server/db/schema.js';
import { JOIN_LIMIT } from '../../../src/server/realtime/public-rooms.js';
import { buildActor } from '../../support/actors.js';
import { buildAuction, buildSession } from '../../support/factories.js';
import { startTestServer, type TestServer } from '../../support/server.js';
import { connected, connectSocket, eventMatching } from '../../support/sockets.js';

/**
 * joinSession / joinAuction on one socket: a join of a room the socket is in answers without
 * reading the database (every change since its first join reached it); joins are throttled per
 * socket; and each join is a hold, so one part of a page leaving does not pull out another that
 * follows the same room over the same socket (the Live Hub and its edit window).
 */

describe('joining public rooms', () => {
  let server: TestServer;
  let sellerId: string;
  const open: Socket[] = [];

  beforeAll(async () => {
    server = await startTestServer();
    sellerId = (await buildActor(server, { email: 'vende@salas.mx', name: 'Silvia Vendedora', roles: ['seller'], companyId: 'salas' })).id;
  }, 60_000);
  afterEach(() => {
    for (const s of open.splice(0)) s.disconnect();
  });
  afterAll(async () => server?.close());

  async function socket(): Promise<Socket> {
    const s = connectSocket(server.url);
    open.push(s);
    await connected(s);
    return s;
  }
  const ask = (s: Socket, event: string, payload: unknown) => s.timeout(5000).emitWithAck(event as 'joinSession', payload as never) as Promise<RoomAck>;
  const bumpVersion = (id: string) =>
    server.ctx.db
      .update(liveSessions)
      .set({ version: sql`${liveSessions.version} + 5` })
      .where(eq(liveSessions.id, id));

  /**
   * Whether `s` hears a status sent to the session's room: a marker sent after it to another
   * session room `s` is in arrives after it (one instance keeps the order), so no timer decides.
   */
  async function hearsSession(s: Socket, sessionId: string, markerRoom: string): Promise<boolean> {
    let heard = false;
    const onStatus = (e: SessionStatusEvent) => {
      if (e.sessionId === sessionId) heard = true;
    };
    s.on('sessionStatusUpdate', onStatus);
    const marker = eventMatching<SessionStatusEvent>(s, 'sessionStatusUpdate', (e) => e.sessionId === markerRoom);
    server.ctx.realtime.toSession(sessionId, 'sessionStatusUpdate', { sessionId, status: 'live', version: 99 });
    server.ctx.realtime.toSession(markerRoom, 'sessionStatusUpdate', { sessionId: markerRoom, status: 'live', version: 99 });
    await marker;
    s.off('sessionStatusUpdate', onStatus);
    return heard;
  }

  it('answers a second join of a room the socket is in from what it read the first time', async () => {
    const session = await buildSession(server.ctx.db, { sellerId, companyId: 'salas' });
    const auction = await buildAuction(server.ctx.db, { sellerId, companyId: 'salas' });
    const s = await socket();
    expect(await ask(s, 'joinSession', { sessionId: session.id })).toEqual({ ok: true, version: session.version });
    expect(await ask(s, 'joinAuction', { auctionId: auction.id })).toEqual({ ok: true, version: auction.version });
    // Changed behind the rooms' back: a join that read the database would answer the new version.
    await bumpVersion(session.id);
    expect(await ask(s, 'joinSession', { sessionId: session.id })).toEqual({ ok: true, version: session.version });
    // Another socket, not in the room, reads it.
    expect(await ask(await socket(), 'joinSession', { sessionId: session.id })).toEqual({ ok: true, version: session.version + 5 });
  });

  it('keeps the socket in the room until every part of the page that joined it has left', async () => {
    const session = await buildSession(server.ctx.db, { sellerId, companyId: 'salas' });
    const marker = crypto.randomUUID();
    const hub = await socket();
    await ask(hub, 'joinSession', { sessionId: marker });
    // The Hub (its own screen, not a viewer), then its edit window on the same session.
    await ask(hub, 'joinSession', { sessionId: session.id, host: true });
    await ask(hub, 'joinSession', { sessionId: session.id });
    expect(server.ctx.realtime.viewerCount(session.id)).toBe(0);
    expect(await ask(hub, 'leaveSession', { sessionId: session.id })).toEqual({ ok: true });
    // The window closed; the Hub still follows the show, and is still not counted.
    expect(await hearsSession(hub, session.id, marker)).toBe(true);
    expect(server.ctx.realtime.viewerCount(session.id)).toBe(0);
    await ask(hub, 'leaveSession', { sessionId: session.id });
    expect(await hearsSession(hub, session.id, marker)).toBe(false);
  });

  it('throttles joins per socket', async () => {
    const s = await socket();
    const acks: RoomAck[] = [];
    // Joins and leaves of fresh rooms, as a loop of joins would: each one would read the database.
    for (let i = 0; i < JOIN_LIMIT.count + 3; i++) {
      const sessionId = crypto.randomUUID();
      acks.push(await ask(s, 'joinSession', { sessionId }));
      await ask(s, 'leaveSession', { sessionId });
    }
    expect(acks.slice(0, JOIN_LIMIT.count).every((a) => a.ok)).toBe(true);
    expect(acks.slice(JOIN_LIMIT.count)).toEqual([
      { ok: false, error: 'rate_limited' },
      { ok: false, error: 'rate_limited' },
      { ok: false, error: 'rate_limited' },
    ]);
    expect(await ask(s, 'joinAuction', { auctionId: crypto.randomUUID() })).toEqual({ ok: false, error: 'rate_limited' });
    // Another socket has its own allowance.
    expect(await ask(await socket(), 'joinSession', { sessionId: crypto.randomUUID() })).toMatchObject({ ok: true });
  });
});
