import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SFU_GATHER_TIMEOUT_MS } from '../../../../src/server/providers/video/sfu/protocol.js';
import { SfuRequestError, type SfuSupervisor } from '../../../../src/server/providers/video/sfu/supervisor.js';
import { type Actor, buildActor } from '../../../support/actors.js';
import { buildSession } from '../../../support/factories.js';
import { publishSynthetic, type SyntheticPublisher, until, viewerOffer, watchSynthetic } from '../../../support/rtp-peers.js';
import { startTestServer, type TestServer } from '../../../support/server.js';
import { connected, connectSocket } from '../../../support/sockets.js';
import { sleep } from '../../../support/wait.js';
import { CHROME_PUBLISHER, CHROME_VIEWER, FIREFOX_VIEWER } from './browser-offers.js';
import { type DirectSfu, directSignalling, startDirectSfu } from './direct-sfu.js';
import { hostileOffer } from './hostile-sdp.js';

/**
 * No offer may take the embedded SFU down: it carries every show on the server. Hundreds of
 * malformed and hostile offers go to a running SFU process, straight to it (as if the server's
 * check let them through) and through the server's sockets, and the same process then still
 * serves a real viewer (libdatachannel peers on 127.0.0.1).
 */

/** What the worker writes when something escaped its handlers (sfu/faults.ts). */
const ESCAPED = /unhandled rejection|uncaught exception| failed: /;

describe('the SFU process under hostile offers', () => {
  let direct: DirectSfu;
  const peers: { close(): void }[] = [];

  beforeAll(async () => {
    direct = await startDirectSfu();
  }, 60_000);
  afterAll(async () => {
    for (const p of peers.splice(0)) p.close();
    await direct?.sfu.close();
  });

  it('answers each of them alone, and the same process still serves a real viewer', async () => {
    const { sfu, said } = direct;
    const room = randomUUID();
    const { publisher } = await publishSynthetic(directSignalling(sfu, room), room);
    if (!publisher) throw new Error('no publisher');
    peers.push(publisher);
    const pid = sfu.pid();
    expect(pid).not.toBeNull();

    const viewerBases = [await viewerOffer(), CHROME_VIEWER, FIREFOX_VIEWER];
    const offers: { t: 'subscribe' | 'publish'; sdp: unknown }[] = [
      ...fc.sample(hostileOffer(viewerBases), { numRuns: 200, seed: 21 }).map((sdp) => ({ t: 'subscribe' as const, sdp })),
      ...fc
        .sample(hostileOffer([CHROME_PUBLISHER, publisher.pc.localDescription()?.sdp ?? CHROME_PUBLISHER]), { numRuns: 95, seed: 22 })
        .map((sdp) => ({ t: 'publish' as const, sdp })),
      // Not even text: the IPC carries whatever JSON a bug in the server might send.
      ...[42, null, {}, [], { sdp: 'v=0' }].map((sdp) => ({ t: 'subscribe' as const, sdp })),
    ];
    const outcome = { answered: 0, refusedByLibrary: 0, refused: 0 };
    const fuzzRoom = randomUUID();
    for (let i = 0; i < offers.length; i += 8) {
      await Promise.all(
        offers.slice(i, i + 8).map(async ({ t, sdp }) => {
          const peerId = randomUUID();
          // Publishes go to a room of their own: one that succeeded would replace the real publisher.
          const call = t === 'publish' ? { t, room: fuzzRoom, pubId: peerId } : { t, room, peerId };
          try {
            await sfu.request({ ...call, sdp } as Parameters<SfuSupervisor['request']>[0]);
            outcome.answered++;
            await sfu.request({ t: 'leave', peerId });
          } catch (err) {
            expect(err).toBeInstanceOf(SfuRequestError);
            expect((err as SfuRequestError).code).toMatch(/^(invalid|failed)$/);
            if ((err as SfuRequestError).message.startsWith('bad offer')) outcome.refusedByLibrary++;
            else outcome.refused++;
          }
        }),
      );
    }
    // Both paths were taken: offers the peer library refused, and offers it took.
    expect(outcome.refusedByLibrary).toBeGreaterThan(20);
    expect(outcome.answered).toBeGreaterThan(5);
    expect(outcome.answered + outcome.refusedByLibrary + outcome.refused).toBe(offers.length);
    // A refused offer used to leave a wait that failed, unhandled, when ICE gathering timed out.
    await sleep(SFU_GATHER_TIMEOUT_MS + 1000);
    expect(direct.exits()).toBe(0);
    expect(sfu.pid()).toBe(pid);
    expect(said.filter((line) => ESCAPED.test(line))).toEqual([]);

    const { ack, viewer } = await watchSynthetic(directSignalling(sfu, room), room);
    expect(ack).toMatchObject({ ok: true });
    if (!viewer) throw new Error('no viewer');
    peers.push(viewer);
    await until(() => viewer.keyframes > 0 && viewer.audio > 0, 'the real viewer’s keyframe and audio');
    expect(sfu.pid()).toBe(pid);
    expect(direct.exits()).toBe(0);
    expect((await sfu.request({ t: 'stats' })).stats).toMatchObject({ publishers: 1, viewers: 1 });
  }, 180_000);
});

describe('the server under hostile offers', () => {
  let server: TestServer;
  let seller: Actor;
  let sessionId: string;
  let otherSessionId: string;
  const sockets: Socket[] = [];
  const peers: { close(): void }[] = [];

  beforeAll(async () => {
    server = await startTestServer({ env: { VIDEO_BIND_ADDRESS: '127.0.0.1' } });
    seller = await buildActor(server, { email: 'vende@fuzz.mx', name: 'Vera Vendedora', roles: ['seller'], companyId: 'remates-fuzz' });
    sessionId = (await buildSession(server.ctx.db, { sellerId: seller.id, companyId: 'remates-fuzz' })).id;
    otherSessionId = (await buildSession(server.ctx.db, { sellerId: seller.id, companyId: 'remates-fuzz' })).id;
  }, 60_000);
  afterAll(async () => {
    for (const p of peers.splice(0)) p.close();
    for (const s of sockets.splice(0)) s.disconnect();
    await server?.close();
  });
  async function socket(actor?: Actor): Promise<Socket> {
    const s = connectSocket(server.url, actor ? { cookie: actor.cookie } : {});
    sockets.push(s);
    await connected(s);
    return s;
  }

  it('refuses them to the socket that sent them, and the same SFU process still serves a real viewer', async () => {
    const { publisher } = await publishSynthetic(await socket(seller), sessionId);
    if (!publisher) throw new Error('no publisher');
    peers.push(publisher as SyntheticPublisher);
    const pid = server.ctx.video.debug?.workerPid();
    expect(pid).toBeTruthy();

    const anonymous = await socket();
    const replies = new Map<string, number>();
    const count = (reply: unknown) => {
      const key = (reply as { ok: boolean; error?: string }).ok ? 'ok' : String((reply as { error?: string }).error);
      replies.set(key, (replies.get(key) ?? 0) + 1);
    };
    const viewerBases = [await viewerOffer(), CHROME_VIEWER, FIREFOX_VIEWER];
    // Larger messages than Socket.IO takes (64 KB) only close the sender's socket.
    const fits = (sdp: string) => JSON.stringify(sdp).length < 40_000;
    const subscribes = fc.sample(hostileOffer(viewerBases), { numRuns: 220, seed: 31 }).filter(fits);
    expect(subscribes.length).toBeGreaterThan(200);
    // One at a time: two subscriptions of one socket at once race each other (the first hears 'unavailable').
    for (const sdp of subscribes) count(await anonymous.timeout(15_000).emitWithAck('videoSubscribe', { sessionId, sdp }));
    // A seller's hostile offers, in a session of its own (one that passed would replace the real publisher).
    const sellerSocket = await socket(seller);
    for (const sdp of fc.sample(hostileOffer([CHROME_PUBLISHER]), { numRuns: 20, seed: 32 }).filter(fits)) {
      count(await sellerSocket.timeout(15_000).emitWithAck('videoPublish', { sessionId: otherSessionId, sdp }));
    }
    // Every answer is a refusal the page understands, or an answer to an offer that was still usable.
    expect(
      [...replies.keys()].every((key) => ['ok', 'invalid', 'unsupported_offer', 'too_many'].includes(key)),
      JSON.stringify([...replies]),
    ).toBe(true);
    expect(replies.get('unsupported_offer') ?? 0).toBeGreaterThan(100);
    await sleep(SFU_GATHER_TIMEOUT_MS + 1000);
    expect(server.ctx.video.debug?.workerPid()).toBe(pid);

    const { ack, viewer } = await watchSynthetic(await socket(), sessionId);
    expect(ack).toMatchObject({ ok: true });
    if (!viewer) throw new Error('no viewer');
    peers.push(viewer);
    await until(() => viewer.keyframes > 0 && viewer.audio > 0, 'the real viewer’s keyframe and audio');
    expect(server.ctx.video.debug?.workerPid()).toBe(pid);
  }, 180_000);
});
