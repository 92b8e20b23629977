import Janus, { type JanusJS } from 'janus-gateway';
import adapter from 'webrtc-adapter';
import { newestPublisher, offerAsDtlsClient, type VideoGrant } from '../../domain/video.js';
import { holdResolutionWhileStarting, withStartBitrate } from './encoder-start';
import { fetchVideoGrant } from './grant';
import { mediaFreshness, mountpointStreams, streamingResult, videoStreamMids } from './janus-streams';
import { publisherStatsSampler } from './rtc-stats';
import {
  type PublishHandle,
  type PublishOptions,
  type PublishStatus,
  type VideoClient,
  VideoClientError,
  type WatchHandle,
  type WatchOptions,
  type WatchStatus,
} from './types';

/**
 * VIDEO_PROVIDER=janus in the browser: janus.js (the `janus-gateway` package) talks to the
 * session's VideoRoom at the address the server granted. This module is loaded only through
 * `loadVideoClient('janus')`, so janus.js and webrtc-adapter reach only the pages that use Janus.
 *
 * The seller joins as a publisher with the grant's token and offers its camera and microphone. A
 * viewer holds no token, and a VideoRoom sends room events only to publishers, so a viewer learns
 * that the seller (re)appeared or left by asking `listparticipants` every few seconds (allowed
 * without a token or the room's secret), then subscribes to the newest publishing feed.
 *
 * With Janus edges the viewer's grant names a Streaming mountpoint instead (`grant.stream`): the
 * server forwards the seller's media from the origin's room to a mountpoint on each edge, and the
 * viewer watches it on the edge the grant's address points at. A lost edge means a new grant,
 * which sends the viewer to another one.
 */

type JanusGrant = Extract<VideoGrant, { provider: 'janus' }>;
type Handle = JanusJS.PluginHandle;
type Msg = JanusJS.Message;

/** How often a viewer asks who publishes or whether the edge receives media (VIDEO.md: 2–3 s), and how long a Janus request may take. */
const POLL_MS = 2500;
const REQUEST_TIMEOUT_MS = 10_000;
/** Reconnection backoff: 1 s, doubling, at most 10 s. */
const backoff = (attempt: number) => Math.min(10_000, 1000 * 2 ** Math.min(attempt, 4));
/** An ICE 'disconnected' that lasts this long is treated as lost (it often recovers by itself). */
const DISCONNECTED_GRACE_MS = 5000;

const VIDEOROOM_UNAUTHORIZED = 433;
const VIDEOROOM_NO_SUCH_ROOM = 426;

let ready: Promise<void> | null = null;
/** janus.js wants one global init; webrtc-adapter is handed over rather than expected on `window`. */
function initJanus(): Promise<void> {
  ready ??= new Promise<void>((resolve) => {
    Janus.init({ debug: false, dependencies: Janus.useDefaultDependencies({ adapter }), callback: () => resolve() });
  });
  return ready;
}

const sleep = (ms: number, signal: { stopped: boolean }) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    if (signal.stopped) {
      clearTimeout(t);
      resolve();
    }
  });

function timeout<T>(work: Promise<T>, what: string, reason: 'unavailable' | 'failed' = 'unavailable'): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([
    work,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new VideoClientError(reason, `Janus: ${what} timed out`)), REQUEST_TIMEOUT_MS);
    }),
  ]).finally(() => clearTimeout(timer));
}

/** The janus.js session and one handle's events, as promises and a single "lost" signal. */
interface Link {
  janus: Janus;
  handle: Handle;
  /** The next plugin message (with its JSEP) that `accept` takes. */
  next(accept: (msg: Msg, jsep?: JanusJS.JSEP) => boolean, what: string): Promise<{ msg: Msg; jsep?: JanusJS.JSEP }>;
  destroy(): void;
}

interface LinkEvents {
  onLost(why: string): void;
  /** Once ICE and DTLS are through (true); false is also reported as lost. */
  onWebrtc?(up: boolean): void;
  onRemoteTrack?(track: MediaStreamTrack, on: boolean): void;
}

/** A plugin a link attaches, and what its messages say when this handle's link is over. */
interface JanusPlugin {
  name: string;
  ended(msg: Msg): string | null;
}

const VIDEOROOM: JanusPlugin = {
  name: 'janus.plugin.videoroom',
  // The room was destroyed (the session ended) or we were kicked: this link is over.
  ended: (msg) =>
    msg.videoroom === 'destroyed' || (msg.videoroom === 'event' && (msg.leaving === 'ok' || msg.kicked !== undefined)) ? `room: ${msg.videoroom}` : null,
};

const STREAMING: JanusPlugin = {
  name: 'janus.plugin.streaming',
  // The mountpoint was destroyed on the edge (the show left it): Janus hangs its viewers up.
  ended: (msg) => (streamingResult(msg).status === 'stopped' ? 'mountpoint stopped' : null),
};

/** Connects to Janus and attaches `plugin`; rejects with 'unavailable' when Janus cannot be reached. */
async function connect(grant: JanusGrant, events: LinkEvents, plugin: JanusPlugin = VIDEOROOM): Promise<Link> {
  await initJanus();
  let live = false;
  let gone = false;
  const waiters: { accept: (msg: Msg, jsep?: JanusJS.JSEP) => boolean; resolve: (v: { msg: Msg; jsep?: JanusJS.JSEP }) => void }[] = [];
  const lost = (why: string) => {
    if (gone) return;
    gone = true;
    events.onLost(why);
  };
  let disconnectedTimer: ReturnType<typeof setTimeout> | undefined;

  const janus = await timeout(
    new Promise<Janus>((resolve, reject) => {
      const j: Janus = new Janus({
        server: grant.url,
        iceServers: grant.iceServers as RTCIceServer[],
        destroyOnUnload: true,
        success: () => {
          live = true;
          resolve(j);
        },
        error: (err: unknown) => {
          if (!live) reject(new VideoClientError('unavailable', `Janus: ${String(err)}`));
          else lost(`session: ${String(err)}`);
        },
      });
    }),
    'connecting',
  );

  try {
    const handle = await timeout(
      new Promise<Handle>((resolve, reject) => {
        janus.attach({
          plugin: plugin.name,
          success: resolve,
          error: (err) => reject(new VideoClientError('unavailable', `Janus: attach: ${err}`)),
          onmessage: (msg, jsep) => {
            const i = waiters.findIndex((w) => w.accept(msg, jsep));
            if (i >= 0) waiters.splice(i, 1)[0]?.resolve({ msg, jsep });
            const ended = plugin.ended(msg);
            if (ended) lost(ended);
          },
          webrtcState: (up) => {
            events.onWebrtc?.(up);
            if (!up) lost('peer connection down');
          },
          iceState: (state) => {
            clearTimeout(disconnectedTimer);
            if (state === 'failed' || state === 'closed') lost(`ice ${state}`);
            else if (state === 'disconnected') disconnectedTimer = setTimeout(() => lost('ice disconnected'), DISCONNECTED_GRACE_MS);
          },
          onremotetrack: (track, _mid, on) => events.onRemoteTrack?.(track, on),
          ondetached: () => lost('handle detached'),
        });
      }),
      'attaching',
    );
    return {
      janus,
      handle,
      next: (accept, what) =>
        timeout(
          new Promise((resolve) => {
            waiters.push({ accept, resolve });
          }),
          what,
        ),
      destroy: () => {
        gone = true;
        clearTimeout(disconnectedTimer);
        try {
          janus.destroy({ cleanupHandles: true, notifyDestroyed: false });
        } catch {
          // Already torn down by janus.js itself.
        }
      },
    };
  } catch (err) {
    gone = true;
    janus.destroy({ cleanupHandles: true, notifyDestroyed: false });
    throw err;
  }
}

/** A synchronous plugin request (listparticipants, info): Janus's answer, errors included. */
function request(handle: Handle, message: { request: string; [k: string]: unknown }): Promise<Msg> {
  return timeout(
    new Promise<Msg>((resolve, reject) => {
      handle.send({ message, success: (data) => resolve((data ?? {}) as Msg), error: (err) => reject(new VideoClientError('unavailable', `Janus: ${err}`)) });
    }),
    message.request,
  );
}

/** The answer to an asynchronous request: the event `expected` recognises, or the error event. */
async function ask(link: Link, message: { request: string; [k: string]: unknown }, expected: (msg: Msg) => boolean, jsep?: JanusJS.JSEP) {
  const answer = link.next((msg) => expected(msg) || typeof msg.error_code === 'number', message.request);
  link.handle.send({ message, ...(jsep ? { jsep } : {}) });
  const got = await answer;
  if (typeof got.msg.error_code === 'number') {
    const reason = got.msg.error_code === VIDEOROOM_UNAUTHORIZED ? 'token' : got.msg.error_code === VIDEOROOM_NO_SUCH_ROOM ? 'unavailable' : 'failed';
    throw new VideoClientError(reason, `Janus: ${message.request}: ${got.msg.error_code} ${got.msg.error ?? ''}`.trim());
  }
  return got;
}

function asJanusGrant(grant: VideoGrant): JanusGrant {
  if (grant.provider !== 'janus') throw new VideoClientError('failed', `the server grants ${grant.provider} video, not janus`);
  return grant;
}

function offer(handle: Handle, tracks: JanusJS.TrackOption[]): Promise<JanusJS.JSEP> {
  return new Promise((resolve, reject) =>
    handle.createOffer({ tracks, success: resolve, error: (err) => reject(new VideoClientError('failed', `offer: ${String(err)}`)) }),
  );
}

// ── Publishing ───────────────────────────────────────────────────────────────

async function publish(opts: PublishOptions): Promise<PublishHandle> {
  const state = { stopped: false };
  const current: { video: MediaStreamTrack | null; audio: MediaStreamTrack | null } = {
    video: opts.stream.getVideoTracks()[0] ?? null,
    audio: opts.stream.getAudioTracks()[0] ?? null,
  };
  if (!current.video && !current.audio) throw new VideoClientError('failed', 'nothing to publish: the stream has no track');
  let link: Link | null = null;
  let lastStatus: PublishStatus | null = null;
  const status = (s: PublishStatus) => {
    if (state.stopped || s === lastStatus) return;
    lastStatus = s;
    opts.onStatus(s);
  };
  let releaseHold = () => {};

  /** One whole attempt: grant, connect, join with the token, offer, configure. */
  async function attempt(onLost: () => void): Promise<void> {
    const grant = asJanusGrant(await fetchVideoGrant(opts.sessionId, 'publisher'));
    if (!grant.token) throw new VideoClientError('token', 'the server granted no publish token');
    const next = await connect(grant, {
      onLost,
      onWebrtc: (up) => {
        if (up && link === next) status('live');
      },
    });
    if (state.stopped) return next.destroy();
    link = next;
    try {
      // display: the join time, so viewers pick the newest feed when a reconnect overlaps the old one.
      await ask(
        next,
        { request: 'join', room: grant.room, ptype: 'publisher', token: grant.token, display: String(Date.now()) },
        (m) => m.videoroom === 'joined',
      );
      const tracks: JanusJS.TrackOption[] = [];
      // dontStop: the tracks stay the caller's when janus.js cleans up (a reconnect, stop()).
      for (const track of [current.video, current.audio]) {
        if (track)
          tracks.push({
            type: track.kind as 'audio' | 'video',
            capture: track,
            recv: false,
            dontStop: true,
            ...(track.kind === 'video' ? { codec: 'vp8' } : {}),
          } as JanusJS.TrackOption);
      }
      const jsep = await offer(next.handle, tracks);
      const configured = await ask(next, { request: 'configure', audio: !!current.audio, video: !!current.video }, (m) => m.configured === 'ok', jsep);
      if (!configured.jsep) throw new VideoClientError('failed', 'Janus answered the offer without an SDP');
      // Every publish is a new encoder: it starts at the camera's size, not scaled down (encoder-start.ts).
      const answer = { ...configured.jsep, sdp: withStartBitrate(configured.jsep.sdp ?? '') } as JanusJS.JSEP;
      await new Promise<void>((resolve, reject) =>
        next.handle.handleRemoteJsep({
          jsep: answer,
          success: () => resolve(),
          error: (err) => reject(new VideoClientError('failed', String(err))),
        }),
      );
      const pc = next.handle.webrtcStuff?.pc as RTCPeerConnection | undefined;
      if (pc && link === next) {
        releaseHold();
        releaseHold = holdResolutionWhileStarting(pc);
      }
    } catch (err) {
      if (link === next) link = null;
      next.destroy();
      throw err;
    }
  }

  let lostCount = 0;
  const onLost = () => {
    if (state.stopped) return;
    releaseHold();
    link?.destroy();
    link = null;
    status('reconnecting');
    void reconnect();
  };
  let reconnecting = false;
  async function reconnect(): Promise<void> {
    if (reconnecting) return;
    reconnecting = true;
    try {
      while (!state.stopped) {
        await sleep(backoff(lostCount++), state);
        if (state.stopped) return;
        try {
          await attempt(onLost);
          lostCount = 0;
          return;
        } catch (err) {
          // Refused (no longer an editor, session gone): retrying would not change the answer.
          if (err instanceof VideoClientError && err.reason === 'token') {
            status('failed');
            return;
          }
        }
      }
    } finally {
      reconnecting = false;
    }
  }

  status('connecting');
  await attempt(onLost);

  const sample = publisherStatsSampler(() => (link?.handle.webrtcStuff?.pc as RTCPeerConnection | undefined) ?? null);
  return {
    async replaceTrack(track: MediaStreamTrack) {
      if (track.kind === 'video') current.video = track;
      else if (track.kind === 'audio') current.audio = track;
      else throw new VideoClientError('failed', `cannot send a ${track.kind} track`);
      (track as MediaStreamTrack & { dontStop?: boolean }).dontStop = true;
      const pc = link?.handle.webrtcStuff?.pc as RTCPeerConnection | undefined;
      const sender = pc
        ?.getSenders()
        .find((s) => s.track?.kind === track.kind || (!s.track && pc.getTransceivers().some((t) => t.sender === s && t.receiver.track.kind === track.kind)));
      // Without a connection now, the next attempt offers the new track anyway.
      if (sender) await sender.replaceTrack(track);
    },
    stats: sample,
    requestKeyframe() {
      // The VideoRoom sends the publisher a PLI when its own handle asks (its recording then gets a keyframe).
      link?.handle.send({ message: { request: 'configure', keyframe: true } });
    },
    async stop() {
      state.stopped = true;
      releaseHold();
      link?.destroy();
      link = null;
    },
  };
}

// ── Watching ─────────────────────────────────────────────────────────────────

/**
 * The answer to an offer Janus made (a room's subscription, a mountpoint): receive only. Janus
 * becomes the DTLS client: it starts the handshake once it holds our answer (offerAsDtlsClient).
 */
function answerReceiving(handle: Handle, offered: JanusJS.JSEP): Promise<JanusJS.JSEP> {
  const jsep = { ...offered, sdp: offerAsDtlsClient(offered.sdp ?? '') } as JanusJS.JSEP;
  return new Promise<JanusJS.JSEP>((resolve, reject) =>
    handle.createAnswer({
      jsep,
      // Receive only: with no local track janus.js would otherwise ask for the camera.
      tracks: [{ type: 'data', capture: false }],
      success: resolve,
      error: (err) => reject(new VideoClientError('failed', `answer: ${String(err)}`)),
    }),
  );
}

/** Streaming's "no such mountpoint": the show has not been broadcast yet (or the edge restarted since). */
const STREAMING_NO_SUCH_MOUNTPOINT = 455;

/** The edge has no mountpoint for the show: nobody has broadcast it yet, or the edge restarted. */
class NoMountpoint extends VideoClientError {
  constructor(message: string) {
    super('unavailable', message);
  }
}

/** A mountpoint's `info` on an edge. One the edge does not have (not yet broadcast, restarted) is a reason to ask for a grant again. */
async function mountpointInfo(handle: Handle, id: number): Promise<Msg> {
  const answer = await request(handle, { request: 'info', id });
  if (answer.error_code === STREAMING_NO_SUCH_MOUNTPOINT) throw new NoMountpoint(`Janus: info: ${answer.error_code} ${answer.error ?? ''}`.trim());
  if (typeof answer.error_code === 'number') throw new VideoClientError('unavailable', `Janus: info: ${answer.error_code} ${answer.error ?? ''}`.trim());
  return answer;
}

/** Failures in a row, shared by a watch's paths for the backoff, and reset by each of them once it works. */
interface Retry {
  failures: number;
}

function watch(opts: WatchOptions): WatchHandle {
  const state = { stopped: false };
  let lastStatus: WatchStatus | null = null;
  const status = (s: WatchStatus) => {
    if (state.stopped || s === lastStatus) return;
    lastStatus = s;
    opts.onStatus(s);
  };
  let streaming = false;
  const showStream = (s: MediaStream | null) => {
    if (state.stopped || (s === null && !streaming)) return;
    streaming = s !== null;
    opts.onStream(s);
  };

  /** The room's path: the control session that asks who publishes, and the subscription to the feed. */
  let control: Link | null = null;
  let viewer: { link: Link; feed: number } | null = null;
  /** Set when the viewer's peer is lost: the room's loop notices at its next turn. */
  let viewerLost = false;
  /** The edge's path: the Streaming handle on the edge the grant points at. */
  let edge: Link | null = null;
  let wake: (() => void) | null = null;
  const nudge = () => wake?.();
  const nap = (ms: number) =>
    new Promise<void>((resolve) => {
      const t = setTimeout(() => {
        wake = null;
        resolve();
      }, ms);
      wake = () => {
        clearTimeout(t);
        wake = null;
        resolve();
      };
    });

  const dropViewer = () => {
    viewer?.link.destroy();
    viewer = null;
    viewerLost = false;
  };

  async function subscribe(grant: JanusGrant, feed: number): Promise<void> {
    status('connecting');
    const stream = new MediaStream();
    let shown = false;
    const link = await connect(grant, {
      onLost: () => {
        viewerLost = true;
        nudge();
      },
      onRemoteTrack: (track, on) => {
        if (on) {
          if (!stream.getTracks().includes(track)) stream.addTrack(track);
        } else if (stream.getTracks().includes(track)) stream.removeTrack(track);
        if (on && !shown) {
          shown = true;
          showStream(stream);
        }
      },
      onWebrtc: (up) => {
        if (up && viewer?.link === link) status('playing');
      },
    });
    viewer = { link, feed };
    if (state.stopped) return dropViewer();
    const joined = await ask(link, { request: 'join', room: grant.room, ptype: 'subscriber', streams: [{ feed }] }, (m) => m.videoroom === 'attached');
    if (!joined.jsep) throw new VideoClientError('failed', 'Janus offered no SDP');
    const answer = await answerReceiving(link.handle, joined.jsep);
    await ask(link, { request: 'start', room: grant.room }, (m) => m.started === 'ok', answer);
    // 'Ahorro de datos': Janus stops sending the feed's video streams to this viewer (the sound stays).
    const videoMids = opts.audioOnly ? videoStreamMids(joined.msg.streams) : [];
    if (videoMids.length > 0) {
      await ask(link, { request: 'configure', streams: videoMids.map((mid) => ({ mid, send: false })) }, (m) => m.configured === 'ok');
    }
  }

  /**
   * Watches the origin's room: asks who publishes on a control session every POLL_MS and
   * subscribes to the newest feed. Returns when the control session is lost, so that the loop asks
   * for a new grant; a subscription that failed is retried here on the same control session, and
   * anything else goes to the loop.
   */
  async function watchRoom(grant: JanusGrant, retry: Retry): Promise<void> {
    let controlLost = false;
    const link = await connect(grant, {
      onLost: () => {
        controlLost = true;
        nudge();
      },
    });
    if (state.stopped) return link.destroy();
    control = link;
    try {
      while (!state.stopped && !controlLost) {
        try {
          const list = await request(link.handle, { request: 'listparticipants', room: grant.room });
          // No room yet (nobody has published since the session's video began) reads as nobody publishing.
          const feed = list.error_code === VIDEOROOM_NO_SUCH_ROOM ? null : newestPublisher(list.participants);
          if (typeof list.error_code === 'number' && list.error_code !== VIDEOROOM_NO_SUCH_ROOM) {
            throw new VideoClientError('failed', `Janus: listparticipants: ${list.error_code} ${list.error ?? ''}`);
          }
          if (viewer && (viewerLost || viewer.feed !== feed)) {
            dropViewer();
            showStream(null);
          }
          if (feed === null) status('waiting');
          else if (!viewer) await subscribe(grant, feed);
          retry.failures = 0;
          if (!state.stopped) await nap(POLL_MS);
        } catch (err) {
          // The control session may be fine (the subscription failed): only a lost one is rebuilt.
          if (state.stopped || !(err instanceof VideoClientError && err.reason === 'failed')) throw err;
          dropViewer();
          showStream(null);
          status('reconnecting');
          await nap(backoff(retry.failures++));
        }
      }
    } finally {
      dropViewer();
      if (control === link) control = null;
      link.destroy();
    }
  }

  /**
   * Watches mountpoint `id` on the edge at `grant.url`. There is no one to ask who publishes: the
   * mountpoint receives the seller's media whenever the seller publishes, so the viewer plays while
   * media arrives and waits while it does not (remote tracks unmute on their first packet, and the
   * mountpoint's `info` tells, every POLL_MS, how long ago the edge last received each stream).
   * Throws when the edge is lost, so that the loop asks for a new grant, which points at another edge.
   */
  async function watchStream(grant: JanusGrant, id: number, retry: Retry): Promise<void> {
    // Whatever was shown before (the room's feed, until edges came on) is gone: this path shows its own stream.
    showStream(null);
    status('connecting');
    const stream = new MediaStream();
    let link: Link | null = null;
    let isUp = false;
    /** The edge's last `info`: no stream this viewer receives had a packet lately. */
    let isStale = false;
    let signalLost: (why: string) => void = () => {};
    const lost = new Promise<never>((_, reject) => {
      signalLost = (why) => reject(new VideoClientError('unavailable', `Janus edge: ${why}`));
    });
    lost.catch(() => {});
    // A request still waiting when the edge goes is given up at once, not after its timeout: another edge is a grant away.
    const untilLost = <T>(work: Promise<T>) => Promise.race([work, lost]);

    const update = () => {
      if (!link || edge !== link || !isUp) return;
      const isFlowing = !isStale && stream.getTracks().some((t) => !t.muted);
      if (isFlowing && !streaming) showStream(stream);
      else if (!isFlowing) showStream(null);
      status(isFlowing ? 'playing' : 'waiting');
    };
    link = await connect(
      grant,
      {
        onLost: (why) => {
          signalLost(why);
          nudge();
        },
        onWebrtc: (up) => {
          if (!up) return;
          isUp = true;
          retry.failures = 0;
          update();
        },
        onRemoteTrack: (track, on) => {
          if (on) {
            if (!stream.getTracks().includes(track)) stream.addTrack(track);
          } else if (stream.getTracks().includes(track)) stream.removeTrack(track);
          // janus.js reports a track's first packet, and its return after a silence, as the track unmuting: the seller sends.
          if (on && !track.muted) isStale = false;
          update();
        },
      },
      STREAMING,
    );
    if (state.stopped) return link.destroy();
    edge = link;
    try {
      // Before the seller's first broadcast the edge has no mountpoint for the show (the server makes
      // one on every edge once she is live): the viewer waits on the edge, asking at the room's pace.
      let info: Msg | null = null;
      while (!info) {
        try {
          info = await untilLost(mountpointInfo(link.handle, id));
        } catch (err) {
          if (!(err instanceof NoMountpoint) || state.stopped) throw err;
          status('waiting');
          await untilLost(nap(POLL_MS));
          if (state.stopped) return;
        }
      }
      const streams = mountpointStreams(info);
      isStale = mediaFreshness(streams, !!opts.audioOnly) === 'stale';
      const prepared = await untilLost(ask(link, { request: 'watch', id }, (m) => streamingResult(m).status === 'preparing'));
      if (!prepared.jsep) throw new VideoClientError('failed', 'Janus offered no SDP');
      const answer = await untilLost(answerReceiving(link.handle, prepared.jsep));
      // 'started' instead of 'starting' when the peer connection came up before the answer to 'start'.
      await untilLost(ask(link, { request: 'start' }, (m) => ['starting', 'started'].includes(streamingResult(m).status ?? ''), answer));
      // 'Ahorro de datos': the edge stops relaying the picture to this viewer. Janus 1.1's Streaming
      // plugin takes one mid per 'configure' (a 'streams' list would be ignored).
      for (const mid of opts.audioOnly ? videoStreamMids(streams) : []) {
        await untilLost(ask(link, { request: 'configure', mid, send: false }, (m) => streamingResult(m).event === 'configured'));
      }
      while (!state.stopped) {
        update();
        await untilLost(nap(POLL_MS));
        if (state.stopped) return;
        const freshness = mediaFreshness(mountpointStreams(await untilLost(mountpointInfo(link.handle, id))), !!opts.audioOnly);
        if (freshness !== null) isStale = freshness === 'stale';
      }
    } finally {
      if (edge === link) edge = null;
      link.destroy();
    }
  }

  /**
   * Asks for a grant and watches where it points: the room on the origin, or a mountpoint on an
   * edge. After a loss it asks again, so a viewer follows the server's choice (another edge, or the
   * origin once edges are off), with the backoff between failures.
   */
  async function loop(): Promise<void> {
    const retry: Retry = { failures: 0 };
    while (!state.stopped) {
      try {
        const grant = asJanusGrant(await fetchVideoGrant(opts.sessionId, 'subscriber'));
        if (state.stopped) return;
        if (grant.stream) await watchStream(grant, grant.stream.id, retry);
        else await watchRoom(grant, retry);
      } catch (err) {
        if (state.stopped) return;
        showStream(null);
        if (err instanceof VideoClientError && err.reason === 'token') {
          // No such session, or no longer visible: retrying would not change the answer.
          status('failed');
          return;
        }
        status('reconnecting');
        await nap(backoff(retry.failures++));
      }
    }
  }

  status('connecting');
  void loop();
  return {
    stop() {
      state.stopped = true;
      dropViewer();
      control?.destroy();
      control = null;
      edge?.destroy();
      edge = null;
      nudge();
    },
  };
}

export const janusClient: VideoClient = { publish, watch };
