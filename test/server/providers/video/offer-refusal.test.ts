import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SfuStats } from '../../../../src/server/providers/video/sfu/protocol.js';
import { type Actor, buildActor } from '../../../support/actors.js';
import { buildSession } from '../../../support/factories.js';
import { publishSynthetic, type SyntheticPublisher, viewerOffer } from '../../../support/rtp-peers.js';
import { startTestServer, type TestServer } from '../../../support/server.js';
import { connected, connectSocket } from '../../../support/sockets.js';
import { CHROME_PUBLISHER } from './browser-offers.js';

/**
 * The server checks an offer before the SFU's process sees it: each offer below is one the peer
 * library would take (and answer), yet not a browser's. The sender hears `unsupported_offer`,
 * and the SFU holds no peer for it; a seller's bad offer does not replace the running broadcast.
 */

describe('offers the server refuses before the SFU', () => {
  let server: TestServer;
  let seller: Actor;
  let sessionId: string;
  let publisher: SyntheticPublisher | null = null;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    server = await startTestServer({ env: { VIDEO_BIND_ADDRESS: '127.0.0.1' } });
    seller = await buildActor(server, { email: 'vende@ofertas.mx', name: 'Vera Vendedora', roles: ['seller'], companyId: 'remates-ofertas' });
    sessionId = (await buildSession(server.ctx.db, { sellerId: seller.id, companyId: 'remates-ofertas' })).id;
  }, 60_000);
  afterAll(async () => {
    publisher?.close();
    for (const s of sockets.splice(0)) s.disconnect();
    await server?.close();
  });
  async function socket(actor?: Actor): Promise<Socket> {
    const s = connectSocket(server.url, actor ? { cookie: actor.cookie } : {});
    sockets.push(s);
    await connected(s);
    return s;
  }
  const stats = async () => (await server.ctx.video.debug?.stats()) as SfuStats;

  it('answers unsupported_offer, and the SFU never holds a peer for it', async () => {
    ({ publisher } = await publishSynthetic(await socket(seller), sessionId));
    expect(publisher).not.toBeNull();
    const base = await viewerOffer();
    const malformed = [
      base.replace('s=-', 's=señal'),
      base.replace('a=rtcp-mux', `a=x-junk:${'j'.repeat(5000)}\r\na=rtcp-mux`),
      `${base}m=text 9 UDP/TLS/RTP/SAVPF 96\r\na=mid:7\r\n`,
      base.replace('a=rtpmap:96 VP8/90000', 'a=rtpmap:96 VP8/90000\r\na=rtpmap:55 H264/90000'),
      base.replaceAll('a=setup:actpass', 'a=setup:holdconn'),
      base.replace('a=recvonly', 'a=recvonly\r\na=sendrecv'),
    ];
    const viewer = await socket();
    for (const sdp of malformed) {
      expect(await viewer.timeout(15_000).emitWithAck('videoSubscribe', { sessionId, sdp })).toEqual({ ok: false, error: 'unsupported_offer' });
    }
    expect(await stats()).toMatchObject({ publishers: 1, viewers: 0 });

    // A seller's offer that is not a browser's leaves the running broadcast alone.
    const sellerSocket = await socket(seller);
    for (const sdp of [CHROME_PUBLISHER.replaceAll('a=setup:actpass', 'a=setup:holdconn'), `${CHROME_PUBLISHER}m=text 9 UDP/TLS/RTP/SAVPF 96\r\na=mid:7\r\n`]) {
      expect(await sellerSocket.timeout(15_000).emitWithAck('videoPublish', { sessionId, sdp })).toEqual({ ok: false, error: 'unsupported_offer' });
    }
    expect(await stats()).toMatchObject({ publishers: 1, viewers: 0 });
    expect(publisher?.state).toBe('connected');
  }, 60_000);
});
