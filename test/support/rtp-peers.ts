import ndc, { type PeerConnection, type Track } from 'node-datachannel';
import type { Socket } from 'socket.io-client';
import type { VideoPublishAck, VideoSubscribeAck } from '../../src/domain/video.js';
import { isVp8KeyframeStart } from '../../src/server/providers/video/sfu/sdp.js';
import { type SyntheticMedia, vp8RtpPayloads } from './synthetic-media.js';
import { eventually, sleep } from './wait.js';

/**
 * Synthetic WebRTC peers for the embedded SFU's tests: real libdatachannel peers (ICE, DTLS-SRTP)
 * bound to 127.0.0.1, signalled over a real Socket.IO client, exchanging RTP shaped like a
 * browser's (VP8 with its payload descriptor, Opus) without encoding anything, or, when a test
 * needs to decode what went through (a recording), real VP8 and Opus (test/support/synthetic-media.ts).
 */

// Payload types other than the SFU's own (96, 111), so a test sees that it rewrites them.
const PUB = { video: { pt: 100, ssrc: 0x0badf00d }, audio: { pt: 109, ssrc: 0x0badbeef } } as const;
const BIND = { iceServers: [], bindAddress: '127.0.0.1' };

/** Polls `check` until it holds, failing after `timeoutMs` with `what` (kept for the benches, which have no test timeout). */
export function until(check: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  return eventually(check, { intervalMs: 25, timeoutMs, what });
}

/** Makes `pc`'s offer and resolves with it once ICE gathering completed (the callback is registered first: the native event can come at once). */
export function offerOf(pc: PeerConnection): Promise<string> {
  const offer = new Promise<string>((resolve) => {
    pc.onGatheringStateChange((state) => {
      if (state === 'complete') resolve(pc.localDescription()?.sdp ?? '');
    });
  });
  pc.setLocalDescription();
  return offer;
}

/** One RTP packet (RFC 3550, no extensions): what a browser sends, and what Janus writes into its recordings. */
export function rtp(pt: number, seq: number, timestamp: number, ssrc: number, payload: Buffer, marker: boolean): Buffer {
  const header = Buffer.alloc(12);
  header[0] = 0x80;
  header[1] = (marker ? 0x80 : 0) | pt;
  header.writeUInt16BE(seq & 0xffff, 2);
  header.writeUInt32BE(timestamp >>> 0, 4);
  header.writeUInt32BE(ssrc >>> 0, 8);
  return Buffer.concat([header, payload]);
}

/** Whether an RTP packet starts a VP8 keyframe: the SFU's own test (the same RFC 7741 parse). */
export { isVp8KeyframeStart };

/**
 * RR + PLI (RFC 4585) about the sender of `packet`, as a browser sends it when it has no keyframe:
 * Janus maps RTCP to a stream by the report block's SSRC, so the compound carries both.
 */
export function pliFor(packet: Buffer): Buffer {
  const pli = Buffer.alloc(44);
  pli[0] = 0x81;
  pli[1] = 201;
  pli.writeUInt16BE(7, 2);
  pli.writeUInt32BE(1, 4);
  packet.copy(pli, 8, 8, 12);
  pli[32] = 0x81;
  pli[33] = 206;
  pli.writeUInt16BE(2, 34);
  pli.writeUInt32BE(1, 36);
  packet.copy(pli, 40, 8, 12);
  return pli;
}

function keyframeAsked(packet: Buffer): boolean {
  for (let o = 0; o + 4 <= packet.length; ) {
    const fmt = (packet[o] ?? 0) & 0x1f;
    if (packet[o + 1] === 206 && (fmt === 1 || fmt === 4)) return true;
    o += (packet.readUInt16BE(o + 2) + 1) * 4;
  }
  return false;
}

export interface SyntheticPublisher {
  pc: PeerConnection;
  /** PLI/FIR received from the SFU. */
  keyframeRequests: number;
  /** REMB packets received (RTCP PSFB FMT 15). */
  rembs: number;
  keyframesSent: number;
  /**
   * Video frames sent. Without real media each is one RTP packet; with it a frame can take
   * several, and this still counts frames, so a test reads it the same way either way.
   */
  packetsSent: number;
  /** Also a keyframe every this many frames (25 a second); 0: only when asked. */
  keyframeEvery: number;
  state: string;
  close(): void;
}

export interface PublishOptions {
  /**
   * Real VP8 frames and Opus packets to send (looping) instead of the fake payloads, for a test
   * that decodes what the SFU forwards or records (makeSyntheticMedia).
   */
  media?: SyntheticMedia;
}

/**
 * Publishes through `socket`: offers sendonly VP8 + Opus, and once connected sends 25 video
 * frames and 50 audio packets a second. The first frame is a keyframe; later ones only when the
 * SFU asks (PLI/FIR), so a viewer's keyframe proves the request reached the publisher, or every
 * `keyframeEvery` frames when a test sets it. With `opts.media` the frames are real: a keyframe
 * asked for is the media's next one (skipping the frames before it), and the media's own
 * keyframes are sent (and counted) where they fall too.
 */
export async function publishSynthetic(
  socket: Socket,
  sessionId: string,
  opts: PublishOptions = {},
): Promise<{ ack: VideoPublishAck; publisher: SyntheticPublisher | null }> {
  return withRetry(() => publishOnce(socket, sessionId, opts));
}

/**
 * As `publishSynthetic`, trying again while the server answers 'unavailable' for up to `waitMs`, as a
 * seller presses 'Iniciar' again: a fresh server starts its SFU process on the first publish, and waits
 * only 5 s for it, which tsx can take on a busy machine. For benches; a test that means to see
 * 'unavailable' uses `publishSynthetic`.
 */
export async function publishWhenUp(
  socket: Socket,
  sessionId: string,
  opts: PublishOptions = {},
  waitMs = 60_000,
): Promise<{ ack: VideoPublishAck; publisher: SyntheticPublisher | null }> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const published = await publishSynthetic(socket, sessionId, opts);
    if (published.ack.ok || published.ack.error !== 'unavailable' || Date.now() > deadline) return published;
    await sleep(1000);
  }
}

/**
 * libdatachannel 0.23 (node-datachannel 0.33.4) now and then closes a fresh peer connection
 * between its local description and the remote one ("Got a remote candidate without ICE
 * transport"), seemingly when other peers' wrappers are collected; seen about once in three runs
 * of this suite. Browsers retry such an attempt (src/web/video/embedded.ts), and so do these peers.
 */
class NativeFlake extends Error {}

/**
 * Resolves once the peer is connected. The same libdatachannel race can also end a peer just
 * after the answer: under load the DTLS handshake now and then runs before the remote fingerprint
 * is stored ("certificate verify failed"), and the peer fails. A browser's client starts over on
 * 'failed' (src/web/video/embedded.ts); these peers count it as the flake above and retry.
 */
async function connectedOrFlake(state: () => string, close: () => void, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const now = state();
    if (now === 'connected') return;
    if (now === 'failed' || now === 'closed' || Date.now() > deadline) {
      close();
      throw new NativeFlake(`peer ${now} before connecting`);
    }
    await sleep(25);
  }
}
/**
 * How many times a peer tries before the flake above counts as a failure, and how long it waits
 * before each retry. Three attempts in a row once failed in CI while the machine was busy with
 * other suites, so the retries back off as the browser's client does (src/web/video/embedded.ts).
 */
export const NATIVE_FLAKE_ATTEMPTS = 6;
export const nativeFlakeRetryDelayMs = (failedAttempt: number) => Math.min(1600, 100 * 2 ** (failedAttempt - 1));

async function withRetry<T>(attempt: () => Promise<T>): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await attempt();
    } catch (err) {
      if (!(err instanceof NativeFlake) || i >= NATIVE_FLAKE_ATTEMPTS) throw err;
      await sleep(nativeFlakeRetryDelayMs(i));
    }
  }
}

async function publishOnce(socket: Socket, sessionId: string, opts: PublishOptions): Promise<{ ack: VideoPublishAck; publisher: SyntheticPublisher | null }> {
  const { media } = opts;
  // Checked before anything opens: with no keyframe to jump to, a viewer could never start decoding.
  if (media && (media.audio.length === 0 || !media.video.some((frame) => frame.keyframe))) {
    throw new Error('synthetic media needs Opus packets and at least one VP8 keyframe');
  }
  const pc = new ndc.PeerConnection('synthetic-pub', BIND);
  const video = new ndc.Video('0', 'SendOnly');
  video.addVideoCodec(PUB.video.pt, 'VP8');
  video.addSSRC(PUB.video.ssrc, 'synthetic', 'synthetic', 'v');
  const audio = new ndc.Audio('1', 'SendOnly');
  audio.addOpusCodec(PUB.audio.pt);
  audio.addSSRC(PUB.audio.ssrc, 'synthetic', 'synthetic', 'a');
  const tracks: Track[] = [pc.addTrack(video), pc.addTrack(audio)];
  const [videoTrack, audioTrack] = tracks as [Track, Track];
  const me: SyntheticPublisher = { pc, keyframeRequests: 0, rembs: 0, keyframesSent: 0, packetsSent: 0, keyframeEvery: 0, state: 'new', close };
  let wantKeyframe = true;
  videoTrack.onMessage((message) => {
    const packet = Buffer.from(message);
    if (keyframeAsked(packet)) {
      me.keyframeRequests++;
      wantKeyframe = true;
    }
    for (let o = 0; o + 4 <= packet.length; o += (packet.readUInt16BE(o + 2) + 1) * 4) {
      if (packet[o + 1] === 206 && ((packet[o] ?? 0) & 0x1f) === 15) me.rembs++;
    }
  });
  pc.onStateChange((state) => {
    me.state = state;
  });
  const offer = offerOf(pc);
  const ack = (await socket.timeout(15_000).emitWithAck('videoPublish', { sessionId, sdp: await offer })) as VideoPublishAck;
  if (!ack.ok) {
    pc.close();
    return { ack, publisher: null };
  }
  try {
    pc.setRemoteDescription(ack.sdp, 'answer');
  } catch (err) {
    pc.close();
    throw new NativeFlake(String(err));
  }
  let tick = 0;
  let videoSeq = 1000;
  let audioSeq = 5000;
  // Where the real media's next frame and packet are.
  let videoAt = 0;
  let audioAt = 0;
  const timer = setInterval(() => {
    tick++;
    // Audio: 20 ms a packet, so its 48 kHz timestamp moves 960 a tick.
    if (audioTrack.isOpen()) {
      let sound: Buffer = Buffer.alloc(60, 0xaa);
      if (media) {
        sound = media.audio[audioAt] as Buffer;
        audioAt = (audioAt + 1) % media.audio.length;
      }
      audioTrack.sendMessageBinary(rtp(PUB.audio.pt, audioSeq++, tick * 960, PUB.audio.ssrc, sound, false));
    }
    // Video: a frame every other tick (25 fps), so its 90 kHz timestamp moves 3600 a frame.
    if (tick % 2 !== 0 || !videoTrack.isOpen()) return;
    const keyframe = wantKeyframe || (me.keyframeEvery > 0 && me.packetsSent % me.keyframeEvery === 0);
    wantKeyframe = false;
    if (!media) {
      // VP8 payload descriptor S=1 PID=0, then the payload header whose low bit is 0 on a keyframe.
      if (keyframe) me.keyframesSent++;
      const payload = Buffer.concat([Buffer.from([0x10, keyframe ? 0x00 : 0x01]), Buffer.alloc(400, 0x55)]);
      videoTrack.sendMessageBinary(rtp(PUB.video.pt, videoSeq++, tick * 1800, PUB.video.ssrc, payload, true));
      me.packetsSent++;
      return;
    }
    // A real encoder answers a keyframe request with a new one; looping media can only skip ahead to its next.
    if (keyframe) while (!media.video[videoAt]?.keyframe) videoAt = (videoAt + 1) % media.video.length;
    const frame = media.video[videoAt] as SyntheticMedia['video'][number];
    videoAt = (videoAt + 1) % media.video.length;
    if (frame.keyframe) me.keyframesSent++;
    const payloads = vp8RtpPayloads(frame.data);
    payloads.forEach((payload, i) => {
      videoTrack.sendMessageBinary(rtp(PUB.video.pt, videoSeq++, tick * 1800, PUB.video.ssrc, payload, i === payloads.length - 1));
    });
    me.packetsSent++;
  }, 20);
  function close() {
    clearInterval(timer);
    try {
      pc.close();
    } catch {
      // already closed
    }
  }
  await connectedOrFlake(() => me.state, close);
  return { ack, publisher: me };
}

export interface SyntheticViewer {
  peerId: string;
  pc: PeerConnection;
  state: string;
  video: number;
  audio: number;
  /** SSRCs and payload types seen, per kind. */
  ssrcs: Set<number>;
  pts: Set<number>;
  /** Video packets received before the first keyframe start. */
  beforeKeyframe: number;
  keyframes: number;
  close(): void;
}

/** The payload types a synthetic viewer offers unless told otherwise: Chrome's. */
export const VIEWER_PTS = { video: 96, audio: 111 };

/** A viewer's peer as a browser makes it: recvonly VP8 (mid 0) and Opus (mid 1) in `pts`. */
export function recvOnlyPeer(
  name: string,
  pts: { video: number; audio: number },
): { pc: PeerConnection; tracks: Record<'video' | 'audio', Track>; keep: unknown[] } {
  const pc = new ndc.PeerConnection(name, BIND);
  const videoDesc = new ndc.Video('0', 'RecvOnly');
  videoDesc.addVideoCodec(pts.video, 'VP8');
  const audioDesc = new ndc.Audio('1', 'RecvOnly');
  audioDesc.addOpusCodec(pts.audio);
  const tracks = { video: pc.addTrack(videoDesc), audio: pc.addTrack(audioDesc) };
  // Without a JavaScript reference a track and its callback can be collected (VIDEO.md).
  return { pc, tracks, keep: [videoDesc, audioDesc, tracks.video, tracks.audio] };
}

interface WatchOptions {
  /** Sends a PLI once a second after the first keyframe, until the next (a browser whose picture broke). */
  pli?: boolean;
  pts?: { video: number; audio: number };
  /** Rewrites the offer before it is sent (e.g. its candidates, as another network would show them). */
  mapOffer?: (sdp: string) => string;
  /** Asks for the sound only ('Ahorro de datos'). */
  audioOnly?: boolean;
}

/**
 * Watches through `socket`: offers recvonly VP8 + Opus (with `pts`, as a browser chooses them),
 * sets the SFU's answer and counts what arrives.
 */
export function watchSynthetic(
  socket: Socket,
  sessionId: string,
  opts: WatchOptions = {},
): Promise<{ ack: VideoSubscribeAck; viewer: SyntheticViewer | null }> {
  return withRetry(() => watchOnce(socket, sessionId, opts));
}

async function watchOnce(socket: Socket, sessionId: string, opts: WatchOptions): Promise<{ ack: VideoSubscribeAck; viewer: SyntheticViewer | null }> {
  const { pc, tracks, keep } = recvOnlyPeer('synthetic-sub', opts.pts ?? VIEWER_PTS);
  const me: SyntheticViewer = {
    peerId: '',
    pc,
    state: 'new',
    video: 0,
    audio: 0,
    ssrcs: new Set(),
    pts: new Set(),
    beforeKeyframe: 0,
    keyframes: 0,
    close() {
      try {
        pc.close();
      } catch {
        // already closed
      }
    },
  };
  let lastPli = 0;
  pc.onStateChange((state) => {
    me.state = state;
  });
  for (const kind of ['video', 'audio'] as const) {
    const track = tracks[kind];
    track.onMessage((message) => {
      const packet = Buffer.from(message);
      const type = packet[1] ?? 0;
      if (type >= 192 && type <= 223) return;
      me.ssrcs.add(packet.readUInt32BE(8));
      me.pts.add(type & 0x7f);
      if (kind === 'audio') {
        me.audio++;
        return;
      }
      me.video++;
      if (isVp8KeyframeStart(packet)) me.keyframes++;
      else if (me.keyframes === 0) me.beforeKeyframe++;
      // Like a browser whose picture broke after a loss: PLI to the sender's SSRC, once a second, until a new keyframe.
      if (opts.pli && me.keyframes === 1 && Date.now() - lastPli > 1000) {
        lastPli = Date.now();
        track.sendMessageBinary(pliFor(packet));
      }
    });
  }
  const offer = offerOf(pc);
  const sdp = opts.mapOffer ? opts.mapOffer(await offer) : await offer;
  const payload = opts.audioOnly === undefined ? { sessionId, sdp } : { sessionId, sdp, audioOnly: opts.audioOnly };
  const ack = (await socket.timeout(15_000).emitWithAck('videoSubscribe', payload)) as VideoSubscribeAck;
  if (!ack.ok) {
    me.close();
    return { ack, viewer: null };
  }
  me.peerId = ack.peerId;
  try {
    pc.setRemoteDescription(ack.sdp, 'answer');
  } catch (err) {
    me.close();
    throw new NativeFlake(String(err));
  }
  (me as SyntheticViewer & { keep: unknown[] }).keep = keep;
  await connectedOrFlake(
    () => me.state,
    () => me.close(),
  );
  return { ack, viewer: me };
}

/**
 * A viewer's offer made and dropped at once: for a socket that only asks whether the session's
 * video is on (an offer is part of every subscription).
 */
export async function viewerOffer(): Promise<string> {
  const { pc } = recvOnlyPeer('synthetic-offer', VIEWER_PTS);
  const offer = offerOf(pc);
  try {
    return await offer;
  } finally {
    pc.close();
  }
}

/** The SSRCs the synthetic publisher sends with: a viewer must never see them (the SFU rewrites). */
export const PUBLISHER_SSRCS = [PUB.video.ssrc, PUB.audio.ssrc];
