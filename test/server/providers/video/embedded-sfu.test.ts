import type { Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { VideoPublisherEvent } from '../../../../src/domain/video.js';
import { GOP_LIMITS } from '../../../../src/server/providers/video/sfu/gop.js';
import type { SfuStats } from '../../../../src/server/providers/video/sfu/protocol.js';
import { VideoUnavailableError } from '../../../../src/server/providers/video/types.js';
import { type Actor, buildActor } from '../../../support/actors.js';
import { buildSession } from '../../../support/factories.js';
import {
  PUBLISHER_SSRCS,
  publishSynthetic,
  type SyntheticPublisher,
  type SyntheticViewer,
  until,
  viewerOffer,
  watchSynthetic,
} from '../../../support/rtp-peers.js';
import { startTestServer, type TestServer } from '../../../support/server.js';
import { connected, connectSocket, eventMatching } from '../../../support/sockets.js';
import { eventually, sleep } from '../../../support/wait.js';

/**
 * The embedded SFU: its child process, the Socket.IO signalling, who may publish, and
 * media through real libdatachannel peers on 127.0.0.1 (VIDEO_BIND_ADDRESS: libjuice skips
 * loopback otherwise).
 */

const COMPANY = 'remates-video';
const OTHER = 'otra-casa';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('the embedded SFU', () => {
  let server: TestServer;
  let seller: Actor;
  let buyer: Actor;
  let stranger: Actor;
  let sessionId: string;
  const sockets: Socket[] = [];
  const peers: { close(): void }[] = [];

  beforeAll(async () => {
    server = await startTestServer({ env: { VIDEO_BIND_ADDRESS: '127.0.0.1' } });
    seller = await buildActor(server, { email: 'vende@video.mx', name: 'Vera Vendedora', roles: ['seller'], companyId: COMPANY });
    buyer = await buildActor(server, { email: 'mira@video.mx', name: 'Mario Mirón', roles: ['buyer'] });
    stranger = await buildActor(server, { email: 'otra@casa.mx', name: 'Olga Otra', roles: ['seller', 'admin'], companyId: OTHER });
    sessionId = (await buildSession(server.ctx.db, { sellerId: seller.id, companyId: COMPANY })).id;
    // The SFU's child starts with the first request and is up before the tests ask it anything:
    // under tsx on a busy machine it can take longer to start than a request waits (START_WAIT_MS),
    // and a test's first subscription would read 'unavailable' instead of what it checks.
    await subscribeOnly(await socket());
    await eventually(async () => (await server.ctx.video.hasPublisher(sessionId)) !== null, { timeoutMs: 45_000, what: 'the SFU child to start' });
  }, 60_000);
  afterEach(() => {
    for (const p of peers.splice(0)) p.close();
    for (const s of sockets.splice(0)) s.disconnect();
  });
  afterAll(async () => {
    const pid = server?.ctx.video.debug?.workerPid() ?? null;
    await server?.close();
    // close() ends the child: no orphan SFU outlives the server.
    if (pid !== null) expect(isAlive(pid)).toBe(false);
  });

  async function socket(actor?: Actor): Promise<Socket> {
    const s = connectSocket(server.url, actor ? { cookie: actor.cookie } : {});
    sockets.push(s);
    await connected(s);
    return s;
  }
  async function publish(s: Socket, id = sessionId): Promise<SyntheticPublisher> {
    const { ack, publisher } = await publishSynthetic(s, id);
    expect(ack).toMatchObject({ ok: true });
    if (!publisher) throw new Error('no publisher');
    peers.push(publisher);
    return publisher;
  }
  async function watch(s: Socket, opts: { pli?: boolean; pts?: { video: number; audio: number } } = {}): Promise<SyntheticViewer> {
    const { ack, viewer } = await watchSynthetic(s, sessionId, opts);
    expect(ack).toMatchObject({ ok: true });
    if (!viewer || !ack.ok) throw new Error('no viewer');
    // The SFU answers the viewer's offer as the DTLS server, in the viewer's payload types (its worker says why).
    expect(ack.sdp).toMatch(/^a=setup:passive\r?$/m);
    expect(ack.sdp).toMatch(new RegExp(`^a=rtpmap:${opts.pts?.video ?? 96} VP8/90000`, 'm'));
    peers.push(viewer);
    return viewer;
  }
  const stats = async () => (await server.ctx.video.debug?.stats()) as SfuStats;
  /** A subscription that only learns whether the video is on, from a socket in the session's room (the live page joins it first). */
  const subscribeOnly = async (s: Socket) => {
    await ask(s, 'joinSession', { sessionId });
    return ask(s, 'videoSubscribe', { sessionId, sdp: await viewerOffer() });
  };
  const ask = (s: Socket, event: string, payload: unknown) => s.timeout(15_000).emitWithAck(event as 'videoPublish', payload as never) as Promise<unknown>;

  it('lets only the session’s editors publish, and checks every payload', async () => {
    const offer = 'v=0\r\no=- 1 1 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\n';
    for (const actor of [buyer, stranger, undefined]) {
      const s = await socket(actor);
      expect(await ask(s, 'videoPublish', { sessionId, sdp: offer })).toEqual({ ok: false, error: 'forbidden' });
    }
    const s = await socket(seller);
    // No such session: refused like a stranger, without saying whether it exists.
    expect(await ask(s, 'videoPublish', { sessionId: crypto.randomUUID(), sdp: offer })).toEqual({ ok: false, error: 'forbidden' });
    for (const bad of [
      null,
      'x',
      { sessionId: 'nope', sdp: offer },
      { sessionId },
      { sessionId, sdp: 42 },
      { sessionId, sdp: `v=0\r\n${'a'.repeat(40_000)}` },
    ]) {
      expect(await ask(s, 'videoPublish', bad)).toEqual({ ok: false, error: 'invalid' });
    }
    // An offer without VP8 is not something the SFU can forward.
    expect(await ask(s, 'videoPublish', { sessionId, sdp: offer })).toEqual({ ok: false, error: 'unsupported_offer' });
    // A viewer subscribes with its offer.
    const watcherOffer = await viewerOffer();
    for (const bad of [
      null,
      { sessionId: 'nope', sdp: watcherOffer },
      { sessionId },
      { sessionId, sdp: 42 },
      { sessionId, sdp: `v=0\r\n${'a'.repeat(40_000)}` },
    ]) {
      expect(await ask(s, 'videoSubscribe', bad)).toEqual({ ok: false, error: 'invalid' });
    }
    // The server is still fine after all that.
    expect((await server.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  });

  it('forwards the publisher to every viewer with its own SSRCs, asks for a keyframe per viewer, and says when it goes', async () => {
    const early = await socket();
    expect(await subscribeOnly(early)).toEqual({ ok: false, error: 'not_publishing' });
    const goesLive = eventMatching<VideoPublisherEvent>(early, 'videoPublisher', (e) => e.sessionId === sessionId && e.live);

    const sellerSocket = await socket(seller);
    const publisher = await publish(sellerSocket);
    const live = await goesLive;
    expect(live.epoch).toBeGreaterThan(0);
    await until(() => publisher.keyframesSent >= 1 && publisher.packetsSent > 10, 'the publisher sending');
    // An offer that cannot receive VP8 and Opus is refused, and leaves no viewer behind.
    const noVp8 = (await viewerOffer()).replace(/VP8\/90000/g, 'H264/90000');
    expect(await ask(await socket(), 'videoSubscribe', { sessionId, sdp: noVp8 })).toEqual({ ok: false, error: 'unsupported_offer' });
    expect((await stats()).viewers).toBe(0);

    const first = await watch(early);
    await until(() => first.keyframes > 0 && first.audio > 0, 'the first viewer’s keyframe and audio');
    // The publisher sends keyframes only when asked: once the last one is older than the SFU
    // replays (GOP_LIMITS), a viewer who sends no PLI gets its keyframe by the SFU's own request.
    await sleep(GOP_LIMITS.maxAgeMs + 200);
    const requestsBefore = publisher.keyframeRequests;
    const second = await watch(await socket(buyer));
    await until(() => second.keyframes > 0 && second.audio > 0, 'the second viewer’s keyframe');
    expect(publisher.keyframeRequests).toBeGreaterThan(requestsBefore);
    await until(() => publisher.rembs > 0, 'a REMB to the publisher');

    // With a recent keyframe, viewers who join get the group of pictures since it at once.
    publisher.keyframeEvery = 10;
    const replaysBefore = (await stats()).gopReplays;
    // One of them offers Firefox's payload types (VP8 120, Opus 109): it gets its own copies.
    const firefoxLike = await watch(await socket(), { pts: { video: 120, audio: 109 } });
    const joiners = [await watch(await socket()), firefoxLike, await watch(await socket())];
    await until(() => joiners.every((v) => v.keyframes > 0 && v.audio > 0), 'the joiners’ keyframes and audio');
    expect((await stats()).gopReplays).toBeGreaterThan(replaysBefore);
    publisher.keyframeEvery = 0;

    for (const v of [first, second, ...joiners]) {
      expect(v.state).toBe('connected');
      expect([...v.ssrcs].some((ssrc) => (PUBLISHER_SSRCS as readonly number[]).includes(ssrc))).toBe(false);
      expect(v.ssrcs.size).toBe(2);
      expect([...v.pts].sort((a, b) => a - b)).toEqual(v === firefoxLike ? [109, 120] : [96, 111]);
      // No viewer is sent a frame that refers to a picture it never had.
      expect(v.beforeKeyframe).toBe(0);
    }

    // A viewer whose picture broke asks with a PLI, and the publisher's new keyframe reaches it.
    const third = await watch(await socket(), { pli: true });
    await until(() => third.keyframes > 1, 'the third viewer’s second keyframe');
    expect(await stats()).toMatchObject({ publishers: 1, viewers: 6 });
    expect((await stats()).pliFromViewers).toBeGreaterThan(0);

    const stopped = eventMatching<VideoPublisherEvent>(early, 'videoPublisher', (e) => e.sessionId === sessionId && !e.live);
    expect(await ask(sellerSocket, 'videoLeave', { sessionId })).toEqual({ ok: true });
    const off = await stopped;
    expect(off).toMatchObject({ live: false, reason: 'stopped' });
    expect(off.epoch).toBeGreaterThan(live.epoch);
    expect(await subscribeOnly(early)).toEqual({ ok: false, error: 'not_publishing' });
  });

  it('announces a lost publisher when its socket goes, and a new publish replaces the old one', async () => {
    const viewerSocket = await socket();
    expect(await subscribeOnly(viewerSocket)).toEqual({ ok: false, error: 'not_publishing' });
    const first = await socket(seller);
    const live1 = eventMatching<VideoPublisherEvent>(viewerSocket, 'videoPublisher', (e) => e.live);
    await publish(first);
    const e1 = await live1;
    // The seller reloads: a second page publishes; the first socket leaving later changes nothing.
    const second = await socket(seller);
    const live2 = eventMatching<VideoPublisherEvent>(viewerSocket, 'videoPublisher', (e) => e.live && e.epoch > e1.epoch);
    // Only the page that was replaced hears so (it stops instead of publishing back).
    const replaced = eventMatching<VideoPublisherEvent>(first, 'videoPublisher', (e) => e.reason === 'replaced');
    const viewerHeard: VideoPublisherEvent[] = [];
    viewerSocket.on('videoPublisher', (e: VideoPublisherEvent) => viewerHeard.push(e));
    await publish(second);
    await live2;
    expect(await replaced).toMatchObject({ sessionId, live: false, reason: 'replaced' });
    expect(viewerHeard.some((e) => e.reason === 'replaced')).toBe(false);
    first.disconnect();
    const viewer = await watch(viewerSocket);
    await until(() => viewer.keyframes > 0, 'the viewer’s keyframe from the new publisher');
    const lost = eventMatching<VideoPublisherEvent>(viewerSocket, 'videoPublisher', (e) => !e.live);
    second.disconnect();
    expect(await lost).toMatchObject({ live: false, reason: 'lost' });
  });

  it('ends the session’s video when the broadcast ends (endSession)', async () => {
    const viewerSocket = await socket();
    await subscribeOnly(viewerSocket);
    const live = eventMatching<VideoPublisherEvent>(viewerSocket, 'videoPublisher', (e) => e.live);
    await publish(await socket(seller));
    await live;
    const viewer = await watch(viewerSocket);
    await until(() => viewer.video > 0, 'media before the end');
    const ended = eventMatching<VideoPublisherEvent>(viewerSocket, 'videoPublisher', (e) => !e.live);
    await server.ctx.video.endSession(sessionId);
    expect(await ended).toMatchObject({ live: false, reason: 'stopped' });
    expect(await subscribeOnly(viewerSocket)).toEqual({ ok: false, error: 'not_publishing' });
    expect(await server.ctx.video.debug?.stats()).toMatchObject({ publishers: 0, viewers: 0 });
  });

  it('survives kill -9 of the SFU: the server answers, everyone hears restart, and media flows again', async () => {
    const video = server.ctx.video;
    const sellerSocket = await socket(seller);
    const viewerSocket = await socket();
    await subscribeOnly(viewerSocket);
    const live = eventMatching<VideoPublisherEvent>(viewerSocket, 'videoPublisher', (e) => e.live);
    await publish(sellerSocket);
    await live;
    const viewer = await watch(viewerSocket);
    await until(() => viewer.video > 5, 'media before the crash');

    const pid = video.debug?.workerPid();
    if (!pid) throw new Error('no SFU pid');
    const restartSeen = Promise.all(
      [sellerSocket, viewerSocket].map((s) => eventMatching<VideoPublisherEvent>(s, 'videoPublisher', (e) => e.reason === 'restart')),
    );
    process.kill(pid, 'SIGKILL');
    const [restart] = (await restartSeen) as [VideoPublisherEvent, VideoPublisherEvent];
    expect(restart).toMatchObject({ sessionId, live: false, reason: 'restart' });
    expect((await server.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    await until(() => !isAlive(pid), 'the killed child to be gone');

    // The child comes back by itself (a new process); the seller's page republishes, viewers resubscribe.
    await until(() => (video.debug?.workerPid() ?? pid) !== pid, 'a new SFU process', 30_000);
    await expect(video.grant(sessionId, 'subscriber')).resolves.toMatchObject({ provider: 'embedded', role: 'subscriber' });
    for (const p of peers.splice(0)) p.close();
    const liveAgain = eventMatching<VideoPublisherEvent>(viewerSocket, 'videoPublisher', (e) => e.live && e.epoch > restart.epoch);
    await publish(sellerSocket);
    await liveAgain;
    const again = await watch(viewerSocket);
    await until(() => again.keyframes > 0 && again.audio > 0, 'media after the restart');
  });

  it('refuses grants while the SFU is down and keeps restarting with a growing delay', async () => {
    const video = server.ctx.video;
    const pids: number[] = [];
    // Three crashes in a row: each restart waits longer, and a grant in between is refused.
    for (let i = 0; i < 3; i++) {
      await until(() => video.debug?.workerPid() != null, 'the SFU to be up', 30_000);
      const pid = video.debug?.workerPid() as number;
      pids.push(pid);
      process.kill(pid, 'SIGKILL');
      await until(() => video.debug?.workerPid() == null, 'the server to notice');
    }
    // The third restart waits at least a second (250 ms, 500 ms, 1 s): a grant now is refused at once.
    await expect(video.grant(sessionId, 'publisher')).rejects.toBeInstanceOf(VideoUnavailableError);
    await until(() => video.debug?.workerPid() != null, 'the SFU to come back', 30_000);
    expect(new Set(pids).size).toBe(3);
    await expect(video.grant(sessionId, 'publisher')).resolves.toMatchObject({ provider: 'embedded' });
  });
});
