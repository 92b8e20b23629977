import type { Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { LiveSessionDetail } from '../../../../src/domain/live.js';
import type { VideoPublisherEvent } from '../../../../src/domain/video.js';
import { type Actor, buildActor } from '../../../support/actors.js';
import { buildSession } from '../../../support/factories.js';
import { publishSynthetic, type SyntheticPublisher } from '../../../support/rtp-peers.js';
import { injectAs, startTestServer, type TestServer } from '../../../support/server.js';
import { connected, connectSocket, eventMatching } from '../../../support/sockets.js';

/**
 * 'Finalizada' in the status dropdown ends the show's video as 'Detener' does: the publisher is
 * dropped, the viewers hear the broadcast stopped, and the session records its stop time.
 */

const COMPANY = 'fin-video';
let server: TestServer;
let seller: Actor;
const sockets: Socket[] = [];
const peers: SyntheticPublisher[] = [];

beforeAll(async () => {
  server = await startTestServer({ env: { VIDEO_BIND_ADDRESS: '127.0.0.1' } });
  seller = await buildActor(server, { email: 'vende@fin-video.mx', name: 'Fina Vende', roles: ['seller'], companyId: COMPANY });
}, 60_000);
afterEach(() => {
  for (const p of peers.splice(0)) p.close();
  for (const s of sockets.splice(0)) s.disconnect();
});
afterAll(async () => server?.close());

async function socket(actor?: Actor): Promise<Socket> {
  const s = connectSocket(server.url, actor ? { cookie: actor.cookie } : {});
  sockets.push(s);
  await connected(s);
  return s;
}

describe('ending a session from the status dropdown', () => {
  it('drops its video and stops the broadcast, as Detener does', async () => {
    const session = await buildSession(server.ctx.db, { sellerId: seller.id, companyId: COMPANY });
    const viewer = await socket();
    await new Promise((resolve) => viewer.emit('joinSession', { sessionId: session.id }, resolve));
    const live = eventMatching<VideoPublisherEvent>(viewer, 'videoPublisher', (e) => e.sessionId === session.id && e.live);
    const { ack, publisher } = await publishSynthetic(await socket(seller), session.id);
    expect(ack).toMatchObject({ ok: true });
    if (publisher) peers.push(publisher);
    await live;
    const started = await injectAs(server, seller, 'POST', `/api/live-sessions/${session.id}/stream/start`, {});
    expect((started.json() as LiveSessionDetail).session).toMatchObject({ status: 'live', broadcasting: true });

    const stopped = eventMatching<VideoPublisherEvent>(viewer, 'videoPublisher', (e) => e.sessionId === session.id && !e.live);
    const ended = await injectAs(server, seller, 'PUT', `/api/live-sessions/${session.id}`, { status: 'ended' });
    expect(ended.statusCode, ended.body).toBe(200);
    expect((ended.json() as LiveSessionDetail).session).toMatchObject({ status: 'ended', broadcasting: false });
    expect(await stopped).toMatchObject({ live: false, reason: 'stopped' });
    expect(await server.ctx.video.debug?.stats()).toMatchObject({ publishers: 0, sessions: 0 });
  });
});
