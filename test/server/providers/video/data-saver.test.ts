import type { Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Actor, buildActor } from '../../../support/actors.js';
import { buildSession } from '../../../support/factories.js';
import { publishSynthetic, type SyntheticViewer, until, viewerOffer, watchSynthetic } from '../../../support/rtp-peers.js';
import { startTestServer, type TestServer } from '../../../support/server.js';
import { connected, connectSocket } from '../../../support/sockets.js';
import { sleep } from '../../../support/wait.js';

/**
 * 'Ahorro de datos' on the embedded SFU: a viewer who asks for the sound only is sent no video
 * packet at all (that is what a prepaid plan pays for), while other viewers of the same show get
 * both, and a publisher's restart does not send it video either.
 */
describe('the embedded SFU with data saver', () => {
  let server: TestServer;
  let seller: Actor;
  let sessionId: string;
  const sockets: Socket[] = [];
  const peers: { close(): void }[] = [];

  beforeAll(async () => {
    server = await startTestServer({ env: { VIDEO_BIND_ADDRESS: '127.0.0.1' } });
    seller = await buildActor(server, { email: 'vende@ahorro.mx', name: 'Vera Vendedora', roles: ['seller'], companyId: 'ahorro' });
    sessionId = (await buildSession(server.ctx.db, { sellerId: seller.id, companyId: 'ahorro' })).id;
  }, 60_000);
  afterEach(() => {
    for (const p of peers.splice(0)) p.close();
    for (const s of sockets.splice(0)) s.disconnect();
  });
  afterAll(async () => {
    await server?.close();
  });

  async function socket(actor?: Actor): Promise<Socket> {
    const s = connectSocket(server.url, actor ? { cookie: actor.cookie } : {});
    sockets.push(s);
    await connected(s);
    return s;
  }
  async function watch(audioOnly?: boolean): Promise<SyntheticViewer> {
    const { ack, viewer } = await watchSynthetic(await socket(), sessionId, { audioOnly });
    expect(ack).toMatchObject({ ok: true });
    if (!viewer) throw new Error('no viewer');
    peers.push(viewer);
    return viewer;
  }

  it('sends an audio-only viewer the sound and never the video, beside a viewer who gets both', async () => {
    const { ack, publisher } = await publishSynthetic(await socket(seller), sessionId);
    expect(ack).toMatchObject({ ok: true });
    if (!publisher) throw new Error('no publisher');
    peers.push(publisher);
    await until(() => publisher.packetsSent > 10, 'the publisher sending');
    publisher.keyframeEvery = 10;

    const saver = await watch(true);
    const full = await watch(false);
    await until(() => full.keyframes > 1 && full.audio > 20 && saver.audio > 20, 'both viewers receiving');
    // Long enough for several keyframes to have gone to the full viewer.
    await sleep(500);
    expect(saver.state).toBe('connected');
    expect(saver.video).toBe(0);
    expect(saver.keyframes).toBe(0);
    expect(full.video).toBeGreaterThan(0);

    // A new publish (the seller reloaded) restarts every viewer's picture: still none for the saver.
    const again = await publishSynthetic(await socket(seller), sessionId);
    if (!again.publisher) throw new Error('no second publisher');
    peers.push(again.publisher);
    again.publisher.keyframeEvery = 10;
    const audioBefore = saver.audio;
    const keyframesBefore = full.keyframes;
    await until(() => full.keyframes > keyframesBefore && saver.audio > audioBefore + 20, 'media from the new publisher');
    expect(saver.video).toBe(0);
  });

  it('refuses a data-saver flag that is not true or false', async () => {
    const s = await socket();
    const sdp = await viewerOffer();
    for (const audioOnly of ['yes', 1, null]) {
      expect(await s.timeout(15_000).emitWithAck('videoSubscribe' as never, { sessionId, sdp, audioOnly } as never)).toEqual({ ok: false, error: 'invalid' });
    }
  });
});
