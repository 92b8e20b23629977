import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { isUuid } from '../../../domain/ids.js';
import { MAX_SDP_BYTES, type VideoAckError, type VideoPublisherEvent, type VideoRole } from '../../../domain/video.js';
import { liveSessions } from '../../db/schema.js';
import { canEditSession } from '../../policies/live-sessions.js';
import { MAX_PUBLIC_ROOMS } from '../../realtime/public-rooms.js';
import { rooms } from '../../realtime/rooms.js';
import type { RealtimeSocket } from '../../realtime/types.js';
import { offerProblem } from './sfu/offer-check.js';
import { createSfuSupervisor, SfuRequestError, type SfuSupervisor } from './sfu/supervisor.js';
import { type MediaTap, type MediaTapEvent, type VideoProvider, type VideoProviderDeps, VideoUnavailableError } from './types.js';
import { createViewerPeers } from './viewer-peers.js';

/** Peers one socket may watch at once (a live page and its preview); more is a scraper. */
const MAX_VIEWERS_PER_SOCKET = 2;
/** videoPublish + videoSubscribe per socket in a window: a page retries every few seconds at most. */
const SIGNAL_LIMIT = { count: 10, windowMs: 10_000 };
/** REMB to publishers: what a 640x480–720p camera needs, without inviting the uplink to flood. */
const REMB_BPS = 1_500_000;
/** A request arriving while the child starts (~1 s under tsx) waits for it rather than failing. */
const START_WAIT_MS = 5000;

interface PublisherState {
  pubId: string;
  socketId: string;
  live: boolean;
}
interface SocketVideo {
  /** sessionId → pubId this socket publishes. */
  publishing: Map<string, string>;
  signals: number[];
}

type Reply = (answer: unknown) => void;

/**
 * The embedded SFU (VIDEO.md): a node-datachannel child process (sfu/worker.ts, kept
 * alive by sfu/supervisor.ts) and its signalling over the page's Socket.IO connection. Only the
 * session's editors publish; anyone may watch. This process holds who publishes and watches, the
 * child holds the peers: when the child dies, every session it carried hears 'restart'. A viewer
 * holds a slot (viewer-slots.ts) from its request until its peer ends, or until the connect
 * timeout if the peer never connects, and it enters the session's room only once subscribed.
 */
export async function createEmbeddedVideo(deps: VideoProviderDeps): Promise<VideoProvider & { debug: NonNullable<VideoProvider['debug']> }> {
  const { config, db, realtime, log } = deps;
  const publishers = new Map<string, PublisherState>();
  const sockets = new Map<string, SocketVideo>();
  const epochs = new Map<string, number>();
  /** The recorder's listeners (MediaTap.subscribe); one that throws does not stop the others. */
  const tapListeners = new Set<(event: MediaTapEvent) => void>();

  const sfu: SfuSupervisor = createSfuSupervisor({
    config: {
      bindAddress: config.video.embedded.bindAddress,
      publicIp: config.video.embedded.publicIp,
      portRange: config.video.embedded.portRange,
      iceServers: config.video.iceServers,
      rembBps: REMB_BPS,
    },
    log,
    onExit() {
      // Every peer died with the child: the sessions it carried go off, and their pages reconnect.
      const had = [...publishers.keys()];
      publishers.clear();
      for (const s of sockets.values()) s.publishing.clear();
      // Announced before the viewers' room holds go, so a page that only subscribed hears it too.
      for (const sessionId of had) announce(sessionId, false, 'restart');
      viewers.forgetAll();
      tell({ type: 'restart' });
    },
    onEvent(event) {
      if (event.t === 'publisherState') {
        const current = publishers.get(event.room);
        if (!current || current.pubId !== event.pubId) return;
        if (event.state === 'connected' && !current.live) {
          current.live = true;
          announce(event.room, true);
        } else if (event.state === 'failed' || event.state === 'closed') {
          dropPublisher(event.room, 'lost');
        }
      } else if (event.t === 'recordStarted') {
        tell({ type: 'started', sessionId: event.room, pubId: event.pubId, at: event.at });
      } else if (event.t === 'viewerState') {
        if (event.state === 'connected') viewers.connected(event.peerId);
        else if (event.state === 'failed' || event.state === 'closed') viewers.forget(event.peerId);
      }
    },
  });
  const viewers = createViewerPeers({
    limits: { total: config.viewers.sfuMax, perSocket: MAX_VIEWERS_PER_SOCKET, perAddress: config.viewers.perAddress },
    connectTimeoutMs: config.viewers.connectTimeoutMs,
    leave: (peerId) => void sfu.request({ t: 'leave', peerId }).catch(() => {}),
    socketOf: (socketId) => realtime.io.of('/').sockets.get(socketId),
  });

  /** Epochs start from the clock, so they keep growing across server restarts too. */
  function nextEpoch(sessionId: string): number {
    const epoch = Math.max((epochs.get(sessionId) ?? 0) + 1, Date.now());
    epochs.set(sessionId, epoch);
    return epoch;
  }
  function announce(sessionId: string, live: boolean, reason?: VideoPublisherEvent['reason']): void {
    const event: VideoPublisherEvent = { sessionId, live, epoch: nextEpoch(sessionId), ...(reason ? { reason } : {}) };
    realtime.toSession(sessionId, 'videoPublisher', event);
    tell({ type: 'publisher', sessionId });
  }

  function tell(event: MediaTapEvent): void {
    for (const listener of tapListeners) {
      try {
        listener(event);
      } catch (err) {
        log.error({ err }, 'a recording listener failed');
      }
    }
  }
  const tap: MediaTap = {
    publishing: () => new Map([...publishers].filter(([, p]) => p.live).map(([sessionId, p]) => [sessionId, p.pubId])),
    async record(sessionId, pubId, ports) {
      if (publishers.get(sessionId)?.pubId !== pubId || !sfu.isUp()) return false;
      try {
        await sfu.request({ t: 'record', room: sessionId, pubId, ports });
        return true;
      } catch (err) {
        if (err instanceof SfuRequestError && err.code === 'not_publishing') return false;
        throw err;
      }
    },
    async stop(sessionId) {
      if (sfu.isUp()) await sfu.request({ t: 'stopRecord', room: sessionId });
    },
    async keyframe(sessionId) {
      if (sfu.isUp() && publishers.has(sessionId)) await sfu.request({ t: 'keyframe', room: sessionId });
    },
    subscribe(listener) {
      tapListeners.add(listener);
      return () => tapListeners.delete(listener);
    },
  };

  function stateOf(socket: RealtimeSocket): SocketVideo {
    let s = sockets.get(socket.id);
    if (!s) {
      s = { publishing: new Map(), signals: [] };
      sockets.set(socket.id, s);
    }
    return s;
  }

  function dropPublisher(sessionId: string, reason: 'stopped' | 'lost'): void {
    const current = publishers.get(sessionId);
    if (!current) return;
    publishers.delete(sessionId);
    sockets.get(current.socketId)?.publishing.delete(sessionId);
    sfu.request({ t: 'leave', peerId: current.pubId }).catch(() => {});
    announce(sessionId, false, reason);
  }

  /** Publish and subscribe cost a peer connection each: counted per socket in a sliding window. */
  function allowSignal(s: SocketVideo): boolean {
    const now = Date.now();
    s.signals = s.signals.filter((at) => now - at < SIGNAL_LIMIT.windowMs);
    if (s.signals.length >= SIGNAL_LIMIT.count) return false;
    s.signals.push(now);
    return true;
  }

  const fail = (reply: Reply, error: VideoAckError) => reply({ ok: false, error });
  const ackOf = (ack: unknown): Reply => (typeof ack === 'function' ? (ack as Reply) : () => {});
  const field = (payload: unknown, key: string): unknown =>
    payload !== null && typeof payload === 'object' ? (payload as Record<string, unknown>)[key] : undefined;
  const isSdp = (sdp: unknown): sdp is string => typeof sdp === 'string' && sdp.startsWith('v=0') && Buffer.byteLength(sdp) <= MAX_SDP_BYTES;
  // The SFU's 'invalid' is an offer its peer library refused.
  const errorOf = (err: unknown): VideoAckError =>
    !(err instanceof SfuRequestError) ? 'unavailable' : err.code === 'invalid' ? 'unsupported_offer' : err.code === 'not_publishing' ? err.code : 'unavailable';

  async function onPublish(socket: RealtimeSocket, payload: unknown, reply: Reply): Promise<void> {
    const sessionId = field(payload, 'sessionId');
    const sdp = field(payload, 'sdp');
    if (!isUuid(sessionId) || !isSdp(sdp)) return fail(reply, 'invalid');
    if (!socket.data.user) return fail(reply, 'forbidden');
    const s = stateOf(socket);
    if (!allowSignal(s)) return fail(reply, 'too_many');
    const id = sessionId.toLowerCase();
    const [session] = await db.select({ companyId: liveSessions.companyId, sellerId: liveSessions.sellerId }).from(liveSessions).where(eq(liveSessions.id, id));
    // The user as this socket knows it now (an access change re-assigns it).
    if (!session || !canEditSession(socket.data.user, session)) return fail(reply, 'forbidden');
    // An offer the SFU would not serve (sfu/offer-check.ts) never reaches its process.
    if (offerProblem(sdp, 'publish')) return fail(reply, 'unsupported_offer');
    if (!(await sfu.ready(START_WAIT_MS))) return fail(reply, 'unavailable');
    if (!socket.connected) return;
    const pubId = randomUUID();
    const previous = publishers.get(id);
    if (previous) {
      sockets.get(previous.socketId)?.publishing.delete(id);
      // Another tab or device took over: that page must stop, not publish back (they would take turns).
      if (previous.socketId !== socket.id) {
        const event: VideoPublisherEvent = { sessionId: id, live: false, reason: 'replaced', epoch: epochs.get(id) ?? 0 };
        realtime.io.to(previous.socketId).emit('videoPublisher', event);
      }
    }
    // Replaced at once (the seller reloaded): the child closes the old peer when it takes the new one.
    publishers.set(id, { pubId, socketId: socket.id, live: false });
    s.publishing.set(id, pubId);
    // The seller's page hears 'restart' in the session room, like the viewers.
    await socket.join(rooms.session(id));
    try {
      const answer = await sfu.request({ t: 'publish', room: id, pubId, sdp });
      if (publishers.get(id)?.pubId !== pubId) return fail(reply, 'unavailable');
      // The socket left while the SFU answered: its disconnect found nothing to end yet.
      if (!socket.connected) return dropPublisher(id, 'lost');
      reply({ ok: true, sdp: answer.sdp });
    } catch (err) {
      if (publishers.get(id)?.pubId === pubId) {
        publishers.delete(id);
        s.publishing.delete(id);
        if (previous?.live) announce(id, false, 'lost');
      }
      fail(reply, errorOf(err));
    }
  }

  async function onSubscribe(socket: RealtimeSocket, payload: unknown, reply: Reply): Promise<void> {
    const sessionId = field(payload, 'sessionId');
    const sdp = field(payload, 'sdp');
    const audioOnly = field(payload, 'audioOnly');
    if (!isUuid(sessionId) || !isSdp(sdp) || (audioOnly !== undefined && typeof audioOnly !== 'boolean')) return fail(reply, 'invalid');
    if (offerProblem(sdp, 'subscribe')) return fail(reply, 'unsupported_offer');
    const id = sessionId.toLowerCase();
    const s = stateOf(socket);
    if (!allowSignal(s)) return fail(reply, 'too_many');
    const room = rooms.session(id);
    // A viewer enters the session's room once subscribed: a socket at its room cap cannot become one.
    const held = socket.data.publicRooms.held;
    if (!held.has(room) && held.size >= MAX_PUBLIC_ROOMS) return fail(reply, 'too_many');
    // The slot is taken before any await, so parallel subscriptions cannot overshoot a cap.
    const peerId = randomUUID();
    if (!viewers.reserve({ id: peerId, sessionId: id, socketId: socket.id, address: socket.data.address }).ok) return fail(reply, 'too_many');
    if (!(await sfu.ready(START_WAIT_MS))) {
      viewers.forget(peerId);
      return fail(reply, 'unavailable');
    }
    // Replaced, taken back or its socket gone while the SFU started.
    if (!viewers.has(peerId)) return fail(reply, 'unavailable');
    const epoch = epochs.get(id) ?? 0;
    if (!publishers.has(id)) {
      viewers.forget(peerId);
      return reply({ ok: false, error: 'not_publishing' });
    }
    try {
      const answer = await sfu.request({ t: 'subscribe', room: id, peerId, sdp, audioOnly: audioOnly === true });
      // Its slot went while the SFU answered: the peer the child just made goes too.
      if (!viewers.has(peerId) || !socket.connected) {
        viewers.end(peerId);
        return fail(reply, 'unavailable');
      }
      if (!viewers.hold(peerId, socket, id)) {
        viewers.end(peerId);
        return fail(reply, 'too_many');
      }
      reply({ ok: true, peerId, sdp: answer.sdp, epoch });
    } catch (err) {
      // A request that timed out may still make its peer in the child: the leave ends it.
      viewers.end(peerId);
      fail(reply, errorOf(err));
    }
  }

  function onLeave(socket: RealtimeSocket, payload: unknown, reply: Reply): void {
    const sessionId = field(payload, 'sessionId');
    if (!isUuid(sessionId)) {
      reply({ ok: false });
      return;
    }
    const id = sessionId.toLowerCase();
    const s = sockets.get(socket.id);
    if (s?.publishing.has(id) && publishers.get(id)?.socketId === socket.id) dropPublisher(id, 'stopped');
    const peerId = viewers.of(socket.id, id);
    if (peerId) viewers.end(peerId);
    reply({ ok: true });
  }

  function onDisconnect(socket: RealtimeSocket): void {
    const s = sockets.get(socket.id);
    sockets.delete(socket.id);
    viewers.endSocket(socket.id);
    if (!s) return;
    for (const sessionId of s.publishing.keys()) if (publishers.get(sessionId)?.socketId === socket.id) dropPublisher(sessionId, 'lost');
  }

  const onConnection = (socket: RealtimeSocket) => {
    // Payloads come from anyone: typed as the client should send them, taken here as unknown and checked.
    const on = (event: 'videoPublish' | 'videoSubscribe' | 'videoLeave', listener: (payload: unknown, ack?: unknown) => void) => socket.on(event, listener);
    const guard = (task: Promise<void>, reply: Reply) =>
      task.catch((err: unknown) => {
        log.error({ err }, 'video signalling failed');
        fail(reply, 'unavailable');
      });
    on('videoPublish', (payload, ack) => void guard(onPublish(socket, payload, ackOf(ack)), ackOf(ack)));
    on('videoSubscribe', (payload, ack) => void guard(onSubscribe(socket, payload, ackOf(ack)), ackOf(ack)));
    on('videoLeave', (payload, ack) => onLeave(socket, payload, ackOf(ack)));
    socket.on('disconnect', () => onDisconnect(socket));
  };
  realtime.io.on('connection', onConnection);

  return {
    name: 'embedded',
    tap,
    // The browser reaches the SFU over WebRTC only (no HTTP or WebSocket origin of its own).
    cspConnectSrc: [],
    async grant(_sessionId: string, role: VideoRole) {
      if (!(await sfu.ready(START_WAIT_MS))) throw new VideoUnavailableError('the embedded SFU is restarting');
      return { provider: 'embedded', role, iceServers: config.video.iceServers };
    },
    async endSession(sessionId: string) {
      const id = sessionId.toLowerCase();
      const current = publishers.get(id);
      if (current) {
        publishers.delete(id);
        sockets.get(current.socketId)?.publishing.delete(id);
        announce(id, false, 'stopped');
      }
      // After the announcement, so a page that only subscribed hears it; endRoom below ends the peers.
      viewers.forgetSession(id);
      if (sfu.isUp()) await sfu.request({ t: 'endRoom', room: id }).catch(() => {});
    },
    async hasPublisher(sessionId: string) {
      // While the child restarts every publisher was dropped and their pages are on their way back.
      if (!sfu.isUp()) return null;
      return publishers.has(sessionId.toLowerCase());
    },
    async close() {
      realtime.io.off('connection', onConnection);
      await sfu.close();
    },
    debug: {
      workerPid: () => sfu.pid(),
      ready: (timeoutMs: number) => sfu.ready(timeoutMs),
      stats: async () => ({ ...(await sfu.request({ t: 'stats' })).stats, sessions: publishers.size, trackedViewers: viewers.size, slots: viewers.counts() }),
    },
  };
}
