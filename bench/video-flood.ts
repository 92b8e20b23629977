/**
 * The video bench's flood mode (bench/video.ts, MODES=flood): N hostile sockets from one address
 * subscribe to one show's video and resubscribe as fast as the server lets a socket (the audit's
 * attack: 300 anonymous sockets took every viewer slot and the SFU grew 117 → 433 MB). Meanwhile a
 * real viewer of another show, from another address, joins and must receive video; after the
 * flood the SFU child's memory must come back to within 20 % of what it was before.
 *
 * No browser: the seller signs in through the development form and publishes both shows with the
 * synthetic publisher of test/support/rtp-peers.ts; the hostile sockets run in a child process.
 * Their offers carry no candidates, so the SFU's peers for them never connect (a script's).
 */
import type { ChildProcess } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import ndc from 'node-datachannel';
import type { Socket } from 'socket.io-client';
import type { VideoSubscribeAck } from '../src/domain/video.js';
import { publishWhenUp, type SyntheticPublisher, type SyntheticViewer, viewerOffer, watchSynthetic } from '../test/support/rtp-peers.js';
import { connected, connectSocket } from '../test/support/sockets.js';
import { onceMessage, round, rssMb, sendToParent, sleep } from './support.js';

/** The flood's knobs (bench/video.ts reads them from the environment). */
export interface FloodOptions {
  /** Hostile sockets, all from 127.0.0.1. */
  sockets: number;
  /** Seconds the flood lasts. */
  seconds: number;
  /** Seconds after the flood before the SFU's memory is read again. */
  settleSeconds: number;
  /** The real viewer's own loopback address. */
  viewerAddress: string;
  adminEmail: string;
}

interface FloodStart {
  type: 'start';
  base: string;
  /** The show the flood targets, and the one every other hostile socket also asks for. */
  flooded: string;
  watched: string;
  sockets: number;
  seconds: number;
}
/** The child's word that its first subscription has gone: the flood's seconds count from there. */
interface FloodUnderWay {
  type: 'flooding';
}
interface FloodDone {
  type: 'done';
  sent: number;
  answers: Record<string, number>;
  connectErrors: number;
}

/** What one signalling acknowledgement said, as a key to count. */
const outcome = (ack: VideoSubscribeAck | 'timeout') => (ack === 'timeout' ? 'timeout' : ack.ok ? 'ok' : ack.error);

/** The child: N sockets, each subscribing about once a second (the server allows 10 in 10 s per socket), until told to stop. */
export async function runFloodLoad(): Promise<void> {
  ndc.initLogger('Error', () => {});
  const start = await onceMessage<FloodStart>(process, 'start');
  const offer = (await viewerOffer()).replace(/^a=(candidate|end-of-candidates).*\r\n/gm, '');
  const answers: Record<string, number> = {};
  let sent = 0;
  let connectErrors = 0;
  let stopping = false;
  let announced = false;
  const sockets: Socket[] = [];
  const loops: Promise<void>[] = [];
  for (let i = 0; i < start.sockets; i++) {
    const s = connectSocket(start.base);
    sockets.push(s);
    loops.push(
      connected(s).then(
        async () => {
          for (let round = 0; !stopping; round++) {
            // Every other socket also tries the watched show: the per-address cap must keep it free.
            const sessionId = i % 2 === 1 && round % 2 === 1 ? start.watched : start.flooded;
            sent++;
            if (!announced) {
              announced = true;
              void sendToParent({ type: 'flooding' } satisfies FloodUnderWay);
            }
            const ack = (await s
              .timeout(10_000)
              .emitWithAck('videoSubscribe', { sessionId, sdp: offer })
              .catch(() => 'timeout' as const)) as VideoSubscribeAck | 'timeout';
            // A request still on its way when the flood closed its own socket was cut, not left unanswered.
            const key = ack === 'timeout' && stopping ? 'cutAtStop' : outcome(ack);
            answers[key] = (answers[key] ?? 0) + 1;
            await sleep(1000 + Math.random() * 100);
          }
        },
        () => {
          connectErrors++;
        },
      ),
    );
    // Sockets open over the first second, as a script's do.
    if (i % 50 === 49) await sleep(20);
  }
  await onceMessage<{ type: 'stop' }>(process, 'stop');
  stopping = true;
  for (const s of sockets) s.disconnect();
  await Promise.race([Promise.all(loops), sleep(12_000)]);
  const done: FloodDone = { type: 'done', sent, answers, connectErrors };
  await sendToParent(done);
  ndc.cleanup();
  process.exit(0);
}

/** How long the flood's child may take to send its first subscription. */
const FLOOD_START_LIMIT_MS = 60_000;

/** The development sign-in as the admin of ADMIN_EMAILS, its profile completed: the session cookie. */
async function signIn(base: string, email: string): Promise<string> {
  const res = await fetch(`${base}/auth/dev`, {
    method: 'POST',
    headers: { origin: base, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email, name: 'Banco Inundación', returnTo: '/admin' }),
    redirect: 'manual',
  });
  const cookie = (res.headers.getSetCookie?.() ?? []).find((c) => c.startsWith('martillo_session='))?.split(';')[0];
  if (!cookie) throw new Error(`dev sign-in: ${res.status} ${await res.text()}`);
  const profile = await fetch(`${base}/api/profile`, {
    method: 'PUT',
    headers: { origin: base, cookie, 'content-type': 'application/json' },
    body: JSON.stringify({ lastName: 'Video', companyName: 'Banco', whatsappCountryCode: '+52', whatsappLocal: '3312345678', whatsappConsentGiven: true }),
  });
  if (!profile.ok) throw new Error(`profile: ${profile.status} ${await profile.text()}`);
  return cookie;
}

async function createShow(base: string, cookie: string, title: string): Promise<string> {
  const res = await fetch(`${base}/api/live-sessions`, {
    method: 'POST',
    headers: { origin: base, cookie, 'content-type': 'application/json' },
    body: JSON.stringify({ title, scheduledAt: Date.now() + 3_600_000, sellerSlug: 'banco-inundacion' }),
  });
  if (res.status !== 201) throw new Error(`create session: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { session: { id: string } }).session.id;
}

/** The real viewer: like the live page, it retries a refused subscription with a growing delay. */
async function realViewer(base: string, address: string, sessionId: string, deadlineMs: number) {
  const socket = connectSocket(base, { localAddress: address });
  await connected(socket);
  await socket.timeout(5000).emitWithAck('joinSession', { sessionId });
  const t0 = performance.now();
  const refusals: Record<string, number> = {};
  for (let attempt = 1, wait = 1000; ; attempt++, wait = Math.min(wait * 2, 10_000)) {
    const { ack, viewer } = await watchSynthetic(socket, sessionId);
    if (viewer) return { socket, viewer, attempts: attempt, refusals, connectedMs: round(performance.now() - t0, 0) };
    const key = outcome(ack);
    refusals[key] = (refusals[key] ?? 0) + 1;
    if (performance.now() + wait > deadlineMs) return { socket, viewer: null, attempts: attempt, refusals, connectedMs: null };
    await sleep(wait);
  }
}

/**
 * One flood run against a server already started (embedded SFU, PGlite): the seller's two shows,
 * the SFU's memory before, during and after, the hostile sockets' answers, and the real viewer.
 */
export async function runFlood(server: { base: string; pid: number }, opts: FloodOptions & { sfuPid(): number | null; forkLoad(): ChildProcess }) {
  const log = (msg: string) => console.error(`[bench:video] flood: ${msg}`);
  const { base } = server;
  ndc.initLogger('Error', () => {});
  const cookie = await signIn(base, opts.adminEmail);
  const flooded = await createShow(base, cookie, 'La inundada');
  const watched = await createShow(base, cookie, 'La otra');
  const sellerSockets: Socket[] = [];
  const publishers: SyntheticPublisher[] = [];
  let load: ChildProcess | null = null;
  let viewer: SyntheticViewer | null = null;
  let viewerSocket: Socket | null = null;
  try {
    for (const id of [flooded, watched]) {
      const s = connectSocket(base, { cookie });
      sellerSockets.push(s);
      await connected(s);
      const { ack, publisher } = await publishWhenUp(s, id);
      if (!publisher) throw new Error(`publish: ${JSON.stringify(ack)}`);
      publishers.push(publisher);
    }
    const pid = opts.sfuPid();
    if (!pid) throw new Error('the SFU child process was not found under the server');
    // The shows run a moment before the idle reading, as they will after the flood.
    await sleep(3000);
    const before = rssMb(pid);
    log(`two shows live; the SFU holds ${before} MB; ${opts.sockets} hostile sockets for ${opts.seconds} s`);

    load = opts.forkLoad();
    const start: FloodStart = { type: 'start', base, flooded, watched, sockets: opts.sockets, seconds: opts.seconds };
    load.send(start);
    // The flood's seconds count from its first subscription, not from the fork: on a busy machine the
    // child's own start (its code, its offer, its sockets) can take longer than a short flood lasts.
    // A child that never gets a socket through still ends: the flood then reads as not sent.
    const underWay = onceMessage<FloodUnderWay>(load, 'flooding').then(
      () => true,
      () => false,
    );
    let limit: NodeJS.Timeout | undefined;
    await Promise.race([underWay, new Promise<void>((resolve) => (limit = setTimeout(resolve, FLOOD_START_LIMIT_MS)))]);
    clearTimeout(limit);
    const began = performance.now();
    let peak = before ?? 0;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssMb(pid) ?? 0);
    }, 250);
    // The real viewer comes once the flood is under way, and has until the flood ends to get in.
    await sleep(Math.min(3000, (opts.seconds * 1000) / 3));
    const real = await realViewer(base, opts.viewerAddress, watched, began + opts.seconds * 1000);
    viewer = real.viewer;
    viewerSocket = real.socket;
    const keyframeMs = viewer ? await keyframeWithin(viewer, 10_000) : null;
    const heard = viewer ? viewer.video : 0;
    const rest = began + opts.seconds * 1000 - performance.now();
    if (rest > 0) await sleep(rest);
    const videoDuringFlood = viewer ? viewer.video - heard : 0;
    load.send({ type: 'stop' });
    const done = await onceMessage<FloodDone>(load, 'done');
    clearInterval(sampler);
    log(`flood over: ${done.sent} subscriptions sent (${JSON.stringify(done.answers)}); the real viewer ${viewer ? 'watched' : 'never got in'}`);
    viewer?.close();
    viewerSocket?.disconnect();
    // Slots are freed as the sockets go; the child ends their peers. Then the idle state again.
    await sleep(opts.settleSeconds * 1000);
    const after = rssMb(pid);
    const ratio = before && after ? round(after / before, 3) : null;
    const withinTarget = ratio !== null && ratio <= 1.2;
    const realViewerWatched = Boolean(viewer) && keyframeMs !== null && videoDuringFlood > 0;
    const consistency = {
      floodSent: done.sent > 0,
      everySubscriptionAnswered: (done.answers.timeout ?? 0) === 0 && done.connectErrors === 0,
      realViewerReceivedVideo: realViewerWatched,
      memoryRead: before !== null && after !== null,
    };
    return {
      mode: 'flood',
      provider: 'embedded',
      engine: 'pglite',
      hostileSockets: opts.sockets,
      hostileAddress: '127.0.0.1',
      floodSeconds: opts.seconds,
      settleSeconds: opts.settleSeconds,
      subscriptions: { sent: done.sent, answers: done.answers, connectErrors: done.connectErrors },
      realViewer: {
        address: opts.viewerAddress,
        show: 'another show than the flooded one',
        attempts: real.attempts,
        refusals: real.refusals,
        /** From its first request to its peer connected, refusals and retries included. */
        connectedAfterMs: real.connectedMs,
        /** From connected to its first keyframe. */
        keyframeAfterConnectMs: keyframeMs,
        videoPacketsDuringFlood: videoDuringFlood,
        keyframes: viewer?.keyframes ?? 0,
      },
      sfuRssMb: { before, peak: round(peak, 1), after, afterOverBefore: ratio },
      targets: { realViewerWatchedDuringFlood: realViewerWatched, sfuRssAfterWithin20PercentOfBefore: withinTarget, met: realViewerWatched && withinTarget },
      consistency: { ...consistency, ok: Object.values(consistency).every(Boolean) },
    };
  } finally {
    if (load && load.exitCode === null) load.kill('SIGKILL');
    viewer?.close();
    viewerSocket?.disconnect();
    for (const p of publishers) p.close();
    for (const s of sellerSockets) s.disconnect();
    // node-datachannel's threads would keep this process alive after the JSON is printed.
    ndc.cleanup();
  }
}

/** Ms from now to the viewer's first keyframe (it may have one already: 0), or null. */
async function keyframeWithin(viewer: SyntheticViewer, ms: number): Promise<number | null> {
  const t0 = performance.now();
  while (viewer.keyframes === 0) {
    if (performance.now() - t0 > ms) return null;
    await sleep(20);
  }
  return round(performance.now() - t0, 0);
}
