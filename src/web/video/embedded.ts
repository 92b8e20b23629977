import type { VideoAckError, VideoPublishAck, VideoPublisherEvent, VideoSubscribeAck } from '../../domain/video.js';
import type { AppSocket } from '../api/socket';
import { holdResolutionWhileStarting, withStartBitrate } from './encoder-start';
import { publisherStatsSampler } from './rtc-stats';
import { type PublishHandle, type PublishOptions, type PublishStatus, type VideoClient, VideoClientError, type WatchHandle, type WatchOptions } from './types';

/** How long a signalling answer may take before the attempt counts as failed. */
const ACK_TIMEOUT_MS = 10_000;
/** ICE gathering on a LAN takes milliseconds; a missing STUN server must not hold the seller up. */
const GATHER_CAP_MS = 2000;
/** Retry delays after a failure: doubling from the first to the last. */
const RETRY_MIN_MS = 1000;
const RETRY_MAX_MS = 10_000;
/**
 * A first publish that finds the video server starting or restarting (its answer 'unavailable')
 * tries again, at the retry delays, for this long before the seller reads an error: the SFU
 * process starts on the first broadcast, and comes back within about 2 s after a crash.
 */
const FIRST_PUBLISH_BUDGET_MS = 20_000;

/**
 * Timers of one publisher or viewer, all cleared by `clear()` (stop leaves nothing running), and
 * acknowledgements that resolve as 'stopped' once cleared.
 */
function timers() {
  const live = new Set<ReturnType<typeof setTimeout>>();
  const aborts = new Set<() => void>();
  return {
    after(ms: number, fn: () => void) {
      const t = setTimeout(() => {
        live.delete(t);
        fn();
      }, ms);
      live.add(t);
    },
    /** `socket.emit` with an acknowledgement, 'timeout' after ACK_TIMEOUT_MS, 'stopped' when cleared. */
    ask<T>(socket: AppSocket, event: 'videoPublish' | 'videoSubscribe', payload: unknown): Promise<T | 'timeout' | 'stopped'> {
      return new Promise((resolve) => {
        let done = false;
        const finish = (value: T | 'timeout' | 'stopped') => {
          if (done) return;
          done = true;
          clearTimeout(timer);
          live.delete(timer);
          aborts.delete(abort);
          resolve(value);
        };
        const abort = () => finish('stopped');
        const timer = setTimeout(() => finish('timeout'), ACK_TIMEOUT_MS);
        live.add(timer);
        aborts.add(abort);
        (socket.emit as (e: string, p: unknown, ack: (answer: T) => void) => void)(event, payload, (answer: T) => finish(answer));
      });
    },
    /** Resolves true after `ms`, or false as soon as the timers are cleared. */
    wait(ms: number): Promise<boolean> {
      return new Promise((resolve) => {
        const finish = (elapsed: boolean) => {
          clearTimeout(timer);
          live.delete(timer);
          aborts.delete(abort);
          resolve(elapsed);
        };
        const abort = () => finish(false);
        const timer = setTimeout(() => finish(true), ms);
        live.add(timer);
        aborts.add(abort);
      });
    },
    /** The local description once ICE gathering completed, or after GATHER_CAP_MS with what it has. */
    gathered(pc: RTCPeerConnection): Promise<string> {
      return new Promise((resolve) => {
        const done = () => {
          clearTimeout(timer);
          live.delete(timer);
          aborts.delete(done);
          pc.removeEventListener('icegatheringstatechange', check);
          resolve(pc.localDescription?.sdp ?? '');
        };
        const check = () => {
          if (pc.iceGatheringState === 'complete') done();
        };
        const timer = setTimeout(done, GATHER_CAP_MS);
        live.add(timer);
        aborts.add(done);
        pc.addEventListener('icegatheringstatechange', check);
        check();
      });
    },
    clear() {
      for (const t of live) clearTimeout(t);
      live.clear();
      for (const abort of [...aborts]) abort();
    },
  };
}

export function failureOf(error: VideoAckError | 'timeout'): VideoClientError {
  if (error === 'forbidden') return new VideoClientError('token', 'not an editor of this session');
  if (error === 'unsupported_offer') return new VideoClientError('unsupported', 'the video server cannot use this browser’s offer');
  if (error === 'unavailable' || error === 'timeout') return new VideoClientError('unavailable', 'the video server did not answer');
  return new VideoClientError('failed', error);
}

function closePeer(pc: RTCPeerConnection | null): void {
  if (!pc) return;
  pc.onconnectionstatechange = null;
  pc.ontrack = null;
  try {
    pc.close();
  } catch {
    // already closed
  }
}

async function publish(opts: PublishOptions): Promise<PublishHandle> {
  const { socket, sessionId } = opts;
  const t = timers();
  const tracks: { video: MediaStreamTrack | null; audio: MediaStreamTrack | null } = {
    video: opts.stream.getVideoTracks()[0] ?? null,
    audio: opts.stream.getAudioTracks()[0] ?? null,
  };
  if (!tracks.video) throw new VideoClientError('failed', 'no camera track');
  let pc: RTCPeerConnection | null = null;
  let stopped = false;
  let attempt = 0;
  let retries = 0;
  let status: PublishStatus | null = null;
  const setStatus = (next: PublishStatus) => {
    if (stopped || next === status) return;
    status = next;
    opts.onStatus(next);
  };
  let releaseHold = () => {};
  /** The last publish was answered 'unavailable': the SFU process is starting or restarting (a timeout is not that). */
  let serverStarting = false;

  /** One publish: a fresh peer connection, offered over the socket. Throws a VideoClientError. */
  async function connect(): Promise<void> {
    const mine = ++attempt;
    closePeer(pc);
    const peer = new RTCPeerConnection({ iceServers: opts.config.iceServers });
    pc = peer;
    for (const kind of ['video', 'audio'] as const) {
      const track = tracks[kind];
      if (track) peer.addTransceiver(track, { direction: 'sendonly', streams: [opts.stream] });
    }
    peer.onconnectionstatechange = () => {
      if (pc !== peer || stopped) return;
      if (peer.connectionState === 'connected') {
        retries = 0;
        setStatus('live');
      } else if (peer.connectionState === 'failed') retry();
    };
    await peer.setLocalDescription(await peer.createOffer());
    const sdp = await t.gathered(peer);
    const ack = await t.ask<VideoPublishAck>(socket, 'videoPublish', { sessionId, sdp });
    if (stopped || mine !== attempt || ack === 'stopped') return;
    if (ack === 'timeout') throw failureOf('timeout');
    serverStarting = !ack.ok && ack.error === 'unavailable';
    if (!ack.ok) throw failureOf(ack.error);
    // Every publish is a new encoder: it starts at the camera's size, not scaled down (encoder-start.ts).
    await peer.setRemoteDescription({ type: 'answer', sdp: withStartBitrate(ack.sdp) });
    if (pc === peer && !stopped) {
      releaseHold();
      releaseHold = holdResolutionWhileStarting(peer);
    }
  }

  /** Publishes again after a lost socket, a failed peer or an SFU restart; stops on a refusal. */
  function retry(delayMs = 0): void {
    if (stopped) return;
    setStatus('reconnecting');
    releaseHold();
    closePeer(pc);
    pc = null;
    const mine = ++attempt;
    t.after(delayMs, () => {
      if (stopped || mine !== attempt) return;
      // Signalling needs the socket: its 'connect' handler publishes again.
      if (!socket.connected) return;
      connect().catch((err: unknown) => {
        if (stopped) return;
        // Refusals that another attempt would meet again.
        if (err instanceof VideoClientError && (err.reason === 'token' || err.reason === 'unsupported')) return setStatus('failed');
        retries++;
        retry(Math.min(RETRY_MAX_MS, RETRY_MIN_MS * 2 ** (retries - 1)));
      });
    });
  }

  const onPublisher = (event: VideoPublisherEvent) => {
    if (event?.sessionId !== sessionId || event.live) return;
    if (event.reason === 'restart') retry();
    if (event.reason === 'replaced') {
      setStatus('replaced');
      stopped = true;
      t.clear();
      releaseHold();
      closePeer(pc);
      pc = null;
      detach();
    }
  };
  const onConnect = () => retry();
  const onDisconnect = () => {
    if (!stopped) setStatus('reconnecting');
  };
  socket.on('videoPublisher', onPublisher);
  socket.on('connect', onConnect);
  socket.on('disconnect', onDisconnect);
  const detach = () => {
    socket.off('videoPublisher', onPublisher);
    socket.off('connect', onConnect);
    socket.off('disconnect', onDisconnect);
  };

  setStatus('connecting');
  const firstAt = Date.now();
  try {
    for (let tries = 0; ; tries++) {
      serverStarting = false;
      try {
        await connect();
        break;
      } catch (err) {
        const delay = Math.min(RETRY_MAX_MS, RETRY_MIN_MS * 2 ** tries);
        if (stopped || !serverStarting || Date.now() - firstAt + delay > FIRST_PUBLISH_BUDGET_MS) throw err;
        if (!(await t.wait(delay))) throw err;
      }
    }
  } catch (err) {
    stopped = true;
    detach();
    t.clear();
    releaseHold();
    closePeer(pc);
    throw err instanceof VideoClientError ? err : new VideoClientError('failed', err instanceof Error ? err.message : String(err));
  }

  const sample = publisherStatsSampler(() => pc);
  return {
    async replaceTrack(track) {
      const kind = track.kind === 'audio' ? 'audio' : 'video';
      tracks[kind] = track;
      // The sender of that kind (a transceiver's kind is its receiver track's); a reconnect sends the new track too.
      const sender = pc?.getTransceivers().find((tr) => tr.receiver.track.kind === kind)?.sender;
      if (sender) await sender.replaceTrack(track);
    },
    stats: () => sample(),
    async stop() {
      if (stopped) return;
      stopped = true;
      detach();
      t.clear();
      releaseHold();
      closePeer(pc);
      pc = null;
      if (socket.connected) socket.emit('videoLeave', { sessionId });
    },
  };
}

function watch(opts: WatchOptions): WatchHandle {
  const { socket, sessionId } = opts;
  const t = timers();
  let pc: RTCPeerConnection | null = null;
  let stopped = false;
  let attempt = 0;
  let retries = 0;
  /** The newest videoPublisher epoch this viewer acted on. */
  let epoch = 0;
  let hasStream = false;
  let status: string | null = null;
  const setStatus = (next: Parameters<WatchOptions['onStatus']>[0]) => {
    if (stopped || next === status) return;
    status = next;
    opts.onStatus(next);
  };
  const dropStream = () => {
    if (!hasStream) return;
    hasStream = false;
    opts.onStream(null);
  };

  /**
   * The viewer offers (recvonly VP8 video and Opus audio) and the SFU answers: the SFU is then
   * connected before this page's DTLS handshake can start (its worker says why).
   */
  async function subscribe(mine: number): Promise<void> {
    const peer = new RTCPeerConnection({ iceServers: opts.config.iceServers });
    pc = peer;
    const drop = () => {
      closePeer(peer);
      if (pc === peer) pc = null;
    };
    peer.addTransceiver('video', { direction: 'recvonly' });
    peer.addTransceiver('audio', { direction: 'recvonly' });
    const stream = new MediaStream();
    peer.ontrack = (e) => {
      if (pc !== peer) return;
      stream.addTrack(e.track);
      if (stream.getTracks().length === 1) {
        hasStream = true;
        opts.onStream(stream);
      }
    };
    peer.onconnectionstatechange = () => {
      if (pc !== peer || stopped) return;
      if (peer.connectionState === 'connected') {
        retries = 0;
        setStatus('playing');
      } else if (peer.connectionState === 'failed') {
        setStatus('reconnecting');
        later();
      }
    };
    await peer.setLocalDescription(await peer.createOffer());
    const sdp = await t.gathered(peer);
    if (stopped || mine !== attempt) return drop();
    const ack = await t.ask<VideoSubscribeAck>(socket, 'videoSubscribe', { sessionId, sdp, ...(opts.audioOnly ? { audioOnly: true } : {}) });
    if (stopped || mine !== attempt || ack === 'stopped') return drop();
    if (ack === 'timeout') return later();
    if (!ack.ok) {
      drop();
      if (ack.error === 'not_publishing') {
        dropStream();
        return setStatus('waiting');
      }
      if (ack.error === 'unsupported_offer') return setStatus('unsupported');
      if (ack.error === 'invalid' || ack.error === 'forbidden') return setStatus('failed');
      return later();
    }
    if (ack.epoch !== undefined && ack.epoch > epoch) epoch = ack.epoch;
    await peer.setRemoteDescription({ type: 'answer', sdp: ack.sdp });
  }

  /** (Re)subscribes now: the previous peer, if any, is dropped first. */
  function start(): void {
    if (stopped) return;
    const mine = ++attempt;
    closePeer(pc);
    pc = null;
    if (!socket.connected) {
      setStatus('reconnecting');
      return;
    }
    setStatus(status === 'playing' || status === 'reconnecting' ? 'reconnecting' : 'connecting');
    subscribe(mine).catch(() => {
      if (!stopped && mine === attempt) later();
    });
  }

  function later(): void {
    if (stopped) return;
    closePeer(pc);
    pc = null;
    retries++;
    const mine = ++attempt;
    t.after(Math.min(RETRY_MAX_MS, RETRY_MIN_MS * 2 ** (retries - 1)), () => {
      if (mine === attempt) start();
    });
  }

  const onPublisher = (event: VideoPublisherEvent) => {
    if (stopped || event?.sessionId !== sessionId || typeof event.epoch !== 'number' || event.epoch <= epoch) return;
    epoch = event.epoch;
    if (event.live) {
      retries = 0;
      return start();
    }
    ++attempt;
    closePeer(pc);
    pc = null;
    dropStream();
    setStatus('waiting');
  };
  const onConnect = () => start();
  const onDisconnect = () => setStatus('reconnecting');
  socket.on('videoPublisher', onPublisher);
  socket.on('connect', onConnect);
  socket.on('disconnect', onDisconnect);
  start();

  return {
    stop() {
      if (stopped) return;
      stopped = true;
      socket.off('videoPublisher', onPublisher);
      socket.off('connect', onConnect);
      socket.off('disconnect', onDisconnect);
      t.clear();
      closePeer(pc);
      pc = null;
      if (socket.connected) socket.emit('videoLeave', { sessionId });
    },
  };
}

/** The embedded SFU's browser side: signalling over the page's socket, media over WebRTC. */
export const embeddedClient: VideoClient = { publish, watch };
