import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VideoSubscribeAck } from '../../../../src/domain/video.js';
import type { SfuStats } from '../../../../src/server/providers/video/sfu/protocol.js';
import { buildActor } from '../../../support/actors.js';
import { buildSession } from '../../../support/factories.js';
import { publishSynthetic, type SyntheticPublisher, until, viewerOffer, watchSynthetic } from '../../../support/rtp-peers.js';
import { startTestServer, type TestServer } from '../../../support/server.js';
import { sfuUp } from '../../../support/sfu.js';
import { connected, connectSocket } from '../../../support/sockets.js';
import { eventually } from '../../../support/wait.js';

/**
 * Without a proxy (TRUST_PROXY unset) a socket's address is its peer's, whatever X-Forwarded-For
 * it sends; sockets from other loopback addresses (127.0.0.2, ...) are other clients. One slot per
 * address here, and a slot whose peer has not connected within VIDEO_CONNECT_TIMEOUT_SECONDS is
 * freed for someone else, while a viewer that connected keeps its own.
 */

type Stats = SfuStats & { trackedViewers: number; slots: { addresses: Record<string, number> } };

describe('viewer slots without a proxy', () => {
  let server: TestServer;
  let sessionId: string;
  let publisher: SyntheticPublisher | null = null;
  const sockets: Socket[] = [];
  const peers: { close(): void }[] = [];

  beforeAll(async () => {
    server = await startTestServer({ env: { VIDEO_BIND_ADDRESS: '127.0.0.1', VIEWERS_PER_ADDRESS: '1', VIDEO_CONNECT_TIMEOUT_SECONDS: '2' } });
    const seller = await buildActor(server, { email: 'vende@sin-proxy.mx', name: 'Sofía Vendedora', roles: ['seller'], companyId: 'sin-proxy' });
    sessionId = (await buildSession(server.ctx.db, { sellerId: seller.id, companyId: 'sin-proxy' })).id;
    await sfuUp(server, sessionId);
    const published = await publishSynthetic(await socket({ cookie: seller.cookie }), sessionId);
    expect(published.ack).toMatchObject({ ok: true });
    publisher = published.publisher;
  }, 180_000);
  afterAll(async () => {
    for (const p of peers) p.close();
    publisher?.close();
    for (const s of sockets) s.disconnect();
    await server?.close();
  });

  async function socket(opts: { cookie?: string; forwardedFor?: string; localAddress?: string } = {}): Promise<Socket> {
    const s = connectSocket(server.url, opts);
    sockets.push(s);
    await connected(s);
    return s;
  }
  const stats = async () => (await server.ctx.video.debug?.stats()) as Stats;
  async function statsUntil(check: (s: Stats) => boolean, what: string): Promise<void> {
    let st: Stats | null = null;
    await eventually(
      async () => {
        st = await stats();
        return check(st);
      },
      { timeoutMs: 20_000, what: () => `${what}: ${JSON.stringify(st)}` },
    );
  }
  /** A script's offer: no candidates, so its peer never connects. */
  const hostileOffer = async () => (await viewerOffer()).replace(/^a=(candidate|end-of-candidates).*\r\n/gm, '');
  const subscribe = async (s: Socket) => (await s.timeout(15_000).emitWithAck('videoSubscribe', { sessionId, sdp: await hostileOffer() })) as VideoSubscribeAck;

  it('counts the peer’s address and ignores a forwarded one; frees a slot that never connects, and keeps one that did', async () => {
    // A viewer that connects, from its own address: the timeout never takes its slot.
    const { ack, viewer } = await watchSynthetic(await socket({ localAddress: '127.0.0.3' }), sessionId);
    expect(ack).toMatchObject({ ok: true });
    if (!viewer) throw new Error('no viewer');
    peers.push(viewer);

    // Two sockets from 127.0.0.1 claiming different addresses are one client: one slot between them.
    const script = await socket({ forwardedFor: '203.0.113.1' });
    const again = await socket({ forwardedFor: '203.0.113.2' });
    expect(await subscribe(script)).toMatchObject({ ok: true });
    expect(await subscribe(again)).toEqual({ ok: false, error: 'too_many' });
    // Another loopback address is another client.
    expect(await subscribe(await socket({ localAddress: '127.0.0.2' }))).toMatchObject({ ok: true });
    expect((await stats()).slots.addresses).toEqual({ '127.0.0.1': 1, '127.0.0.2': 1, '127.0.0.3': 1 });

    // The script's peer never connects: its slot, and its peer in the SFU, go after the timeout.
    await statsUntil((st) => st.slots.addresses['127.0.0.1'] === undefined && st.slots.addresses['127.0.0.2'] === undefined, 'the unconnected slots to go');
    await statsUntil((st) => st.viewers === 1, 'the SFU to end the unconnected peers');
    expect(await subscribe(again)).toMatchObject({ ok: true });
    // The viewer that connected before them still holds its slot and receives video.
    expect((await stats()).slots.addresses['127.0.0.3']).toBe(1);
    const received = viewer.video;
    await until(() => viewer.video > received, 'more video for the connected viewer');
    expect(viewer.state).toBe('connected');
  });
});
