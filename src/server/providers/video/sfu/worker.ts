/**
 * The embedded SFU's child process (VIDEO.md): one libdatachannel peer per publisher and viewer,
 * RTP forwarded from each room's publisher to its viewers with the payload type and SSRC
 * rewritten. It lives in its own process because a native fault here must not take the server
 * down; the server (embedded.ts) restarts it. It exits when the server's IPC channel closes.
 */

import ndc, { type PeerConnection, type RtcConfig, type Track } from 'node-datachannel';
import { offerAsDtlsClient } from '../../../../domain/video.js';
import { guard, keepServing, report } from './faults.js';
import { GopCache } from './gop.js';
import { SFU_GATHER_TIMEOUT_MS, type SfuErrorCode, type SfuEvent, type SfuReply, type SfuRequest, type SfuStats, type SfuWorkerConfig } from './protocol.js';
import { candidatePolicy, screenCandidates } from './remote-candidates.js';
import {
  asksForKeyframe,
  isRtcp,
  isVp8KeyframeStart,
  ndcIceServers,
  type OfferedSection,
  payloadTypeOf,
  rewriteHostCandidates,
  trimPublisherAnswer,
  viewerSections,
} from './sdp.js';

type Kind = 'video' | 'audio';
/**
 * What every viewer receives: fixed SSRCs per room, whoever publishes, and these payload types
 * unless the viewer's offer chose others (Firefox offers VP8 as 120): then a copy is retyped.
 */
const OUT = { video: { pt: 96, ssrc: 0x4d560001 }, audio: { pt: 111, ssrc: 0x4d410001 } } as const;
/**
 * Keyframe requests to one publisher are coalesced to one per this interval (a burst of joins),
 * and repeated at it while a viewer still waits: Chrome ignores a request that comes within 300 ms
 * of its last keyframe (its EncoderRtcpFeedback), so a request inside that window would be lost.
 */
const KEYFRAME_EVERY_MS = 350;

interface Publisher {
  id: string;
  pc: PeerConnection;
  pt: Record<Kind, number | null>;
  tracks: Partial<Record<Kind, Track>>;
  /** JS references to every track and media handler: without them they are collected and stop delivering. */
  keep: unknown[];
  remb: NodeJS.Timeout | null;
  lastKeyframeAt: number;
  keyframeTimer: NodeJS.Timeout | null;
  /** Its video since the last keyframe, replayed to a viewer who connects (gop.ts). */
  gop: GopCache;
}
interface Viewer {
  id: string;
  room: string;
  pc: PeerConnection;
  tracks: Record<Kind, Track>;
  /** The payload types its offer gave VP8 and Opus. */
  pt: Record<Kind, number>;
  keep: unknown[];
  ready: boolean;
  /**
   * Its video began with a keyframe (forwarded or replayed). Until then no video is sent to it:
   * frames that refer to a picture it never had would not decode.
   */
  started: boolean;
  /** Connected (or asked by PLI/FIR) and no keyframe forwarded to it since. */
  waitingKeyframe: boolean;
}
interface Room {
  id: string;
  publisher: Publisher | null;
  viewers: Map<string, Viewer>;
}

class SfuError extends Error {
  constructor(
    readonly code: SfuErrorCode,
    message: string = code,
  ) {
    super(message);
  }
}

keepServing();

const config = JSON.parse(process.env.SFU_CONFIG ?? '{}') as SfuWorkerConfig;
/** Which of an offer's candidates this SFU may send checks to (remote-candidates.ts). */
const candidates = candidatePolicy(config.bindAddress ?? null);
const rooms = new Map<string, Room>();
const viewers = new Map<string, Viewer>();
const counters = { rtpIn: 0, rtpOut: 0, keyframeRequests: 0, pliFromViewers: 0, gopReplays: 0 };

ndc.initLogger(
  'Error',
  guard('logger', (_level, message) => report('libdatachannel', message)),
);

function rtcConfig(): RtcConfig {
  return {
    iceServers: ndcIceServers(config.iceServers ?? []) as RtcConfig['iceServers'],
    ...(config.bindAddress ? { bindAddress: config.bindAddress } : {}),
    ...(config.portRange ? { portRangeBegin: config.portRange[0], portRangeEnd: config.portRange[1] } : {}),
  };
}

function send(message: SfuReply | SfuEvent): void {
  if (!process.connected) return;
  try {
    // With a callback, a send that fails as the server goes away is not an 'error' event on the process.
    process.send?.(message, undefined, {}, () => {});
  } catch {
    // the channel closed in between: 'disconnect' ends the process
  }
}

const isOpen = (track: Track | undefined): track is Track => {
  try {
    return Boolean(track?.isOpen());
  } catch {
    return false;
  }
};

function room(id: string): Room {
  let r = rooms.get(id);
  if (!r) {
    r = { id, publisher: null, viewers: new Map() };
    rooms.set(id, r);
  }
  return r;
}
function dropRoomIfEmpty(r: Room): void {
  if (!r.publisher && r.viewers.size === 0) rooms.delete(r.id);
}

interface Gathering {
  /** The local description once ICE gathering completed. */
  sdp: Promise<string>;
  /** The offer was refused: the wait ends without a rejection left behind. */
  cancel(): void;
}

/**
 * Waits for `pc`'s ICE gathering. The callback is registered before the description is set (the
 * caller sets it after): the native event can fire before a late callback. The promise is handled
 * from the start: a caller that gives up on it (the offer was refused) must not leave a rejection
 * that nobody handles, which ended the whole process five seconds later.
 */
function gather(pc: PeerConnection): Gathering {
  let timer: NodeJS.Timeout | undefined;
  const sdp = new Promise<string>((resolve, reject) => {
    timer = setTimeout(() => reject(new SfuError('failed', 'ICE gathering timed out')), SFU_GATHER_TIMEOUT_MS);
    pc.onGatheringStateChange(
      guard('gathering', (state) => {
        if (state !== 'complete') return;
        clearTimeout(timer);
        const local = pc.localDescription()?.sdp;
        if (local) resolve(local);
        else reject(new SfuError('failed', 'no local description'));
      }),
    );
  });
  sdp.catch(() => {});
  return { sdp, cancel: () => clearTimeout(timer) };
}

/** An offer as the SFU uses it: a string, with only the candidates it may check (remote-candidates.ts). */
function screened(offer: unknown): string {
  if (typeof offer !== 'string') throw new SfuError('invalid', 'the offer is not text');
  return screenCandidates(offer, candidates).sdp;
}

function closePc(pc: PeerConnection): void {
  try {
    pc.close();
  } catch {
    // already closed
  }
}

/** Copies of the packet being forwarded, per payload type: cleared for each packet. */
const retypedCopies = new Map<number, Buffer>();

/**
 * `packet` (carrying OUT's payload type for its kind) as a viewer whose offer chose `pt` takes it:
 * the same buffer, or a copy with `pt`, made once per packet and payload type.
 */
function retyped(packet: Buffer, pt: number): Buffer {
  if (((packet[1] as number) & 0x7f) === pt) return packet;
  let copy = retypedCopies.get(pt);
  if (!copy) {
    copy = Buffer.from(packet);
    copy[1] = ((packet[1] as number) & 0x80) | pt;
    retypedCopies.set(pt, copy);
  }
  return copy;
}

function someoneWaits(r: Room): boolean {
  for (const v of r.viewers.values()) if (v.ready && v.waitingKeyframe) return true;
  return false;
}

function requestKeyframe(r: Room): void {
  const pub = r.publisher;
  // A request (or its follow-up) is scheduled: it covers this one.
  if (!pub || pub.keyframeTimer) return;
  const wait = pub.lastKeyframeAt + KEYFRAME_EVERY_MS - Date.now();
  const fire = () => {
    pub.keyframeTimer = null;
    if (r.publisher !== pub || !isOpen(pub.tracks.video)) return;
    pub.lastKeyframeAt = Date.now();
    counters.keyframeRequests++;
    try {
      pub.tracks.video.requestKeyframe();
    } catch {
      // the track closed in between
    }
    // Asked again while a viewer still waits (the encoder may have ignored it, or the keyframe got lost).
    pub.keyframeTimer = setTimeout(() => {
      pub.keyframeTimer = null;
      if (r.publisher === pub && someoneWaits(r)) requestKeyframe(r);
    }, KEYFRAME_EVERY_MS);
  };
  // A request inside the interval is delayed, not dropped: the viewer who asked still gets its keyframe.
  if (wait <= 0) fire();
  else pub.keyframeTimer = setTimeout(fire, wait);
}

/**
 * A viewer's video begins: once it is connected and its video track is open, it gets the
 * publisher's current group of pictures at once when one is fresh (gop.ts), so its first picture
 * need not wait for the encoder; otherwise the publisher is asked for a keyframe.
 */
function startVideo(r: Room, v: Viewer): void {
  if (!v.ready || v.started || !isOpen(v.tracks.video)) return;
  const packets = r.publisher?.gop.replay(Date.now());
  if (packets && packets.length > 0) {
    try {
      for (const packet of packets) {
        retypedCopies.clear();
        v.tracks.video.sendMessageBinary(retyped(packet, v.pt.video));
      }
      counters.rtpOut += packets.length;
      counters.gopReplays++;
      v.started = true;
      v.waitingKeyframe = false;
      return;
    } catch {
      // the track closed in between; its state change removes the viewer
      return;
    }
  }
  v.waitingKeyframe = true;
  requestKeyframe(r);
}

function endPublisher(pub: Publisher): void {
  if (pub.remb) clearInterval(pub.remb);
  if (pub.keyframeTimer) clearTimeout(pub.keyframeTimer);
  pub.remb = null;
  pub.keyframeTimer = null;
  pub.gop.clear();
  closePc(pub.pc);
}

function endViewer(v: Viewer): void {
  viewers.delete(v.id);
  const r = rooms.get(v.room);
  if (r) {
    r.viewers.delete(v.id);
    dropRoomIfEmpty(r);
  }
  closePc(v.pc);
}

async function publish(roomId: string, pubId: string, raw: string): Promise<string> {
  const offer = screened(raw);
  const video = payloadTypeOf(offer, 'VP8/90000');
  const audio = payloadTypeOf(offer, 'opus/48000');
  if (video === null) throw new SfuError('invalid', 'the offer has no VP8 video');
  const r = room(roomId);
  // A new publish replaces the old one (the seller reloaded): viewers stay in the room.
  if (r.publisher) endPublisher(r.publisher);
  // The new publisher's frames do not continue the old one's pictures: every viewer restarts at its keyframe.
  for (const v of r.viewers.values()) {
    v.started = false;
    v.waitingKeyframe = true;
  }
  const pc = new ndc.PeerConnection(`pub-${pubId.slice(0, 8)}`, rtcConfig());
  const pub: Publisher = {
    id: pubId,
    pc,
    pt: { video, audio },
    tracks: {},
    keep: [],
    remb: null,
    lastKeyframeAt: 0,
    keyframeTimer: null,
    gop: new GopCache(),
  };
  r.publisher = pub;
  const unpublish = () => {
    if (r.publisher === pub) {
      r.publisher = null;
      dropRoomIfEmpty(r);
    }
    endPublisher(pub);
  };
  pc.onStateChange(
    guard('publisher state', (state) => {
      send({ t: 'publisherState', room: roomId, pubId, state });
      if ((state === 'failed' || state === 'closed') && r.publisher === pub) unpublish();
    }),
  );
  pc.onTrack(
    guard('publisher track', (track) => {
      pub.keep.push(track);
      const kind: Kind = track.type() === 'audio' ? 'audio' : 'video';
      // Sends receiver reports, and the PLI (requestKeyframe) and REMB (requestBitrate) below.
      const session = new ndc.RtcpReceivingSession();
      track.setMediaHandler(session);
      pub.keep.push(session);
      pub.tracks[kind] = track;
      const out = OUT[kind];
      const pt = pub.pt[kind];
      track.onMessage(
        guard('publisher media', (message) => {
          const packet = Buffer.isBuffer(message) ? message : Buffer.from(message);
          if (packet.length < 12 || isRtcp(packet)) return;
          // Only the primary codec: retransmissions (rtx) would need their own SSRC towards viewers.
          const marker = packet[1] as number;
          if ((marker & 0x7f) !== pt || r.publisher !== pub) return;
          counters.rtpIn++;
          packet[1] = (marker & 0x80) | out.pt;
          packet.writeUInt32BE(out.ssrc, 8);
          const keyframe = kind === 'video' && isVp8KeyframeStart(packet);
          if (kind === 'video') pub.gop.push(packet, keyframe, Date.now());
          retypedCopies.clear();
          for (const v of r.viewers.values()) {
            const target = v.tracks[kind];
            if (!v.ready || !isOpen(target)) continue;
            if (kind === 'video') {
              if (keyframe) {
                v.started = true;
                v.waitingKeyframe = false;
              } else if (!v.started) continue;
            }
            try {
              target.sendMessageBinary(retyped(packet, v.pt[kind]));
              counters.rtpOut++;
            } catch {
              // the viewer is going away; its state change removes it
            }
          }
        }),
      );
      if (kind === 'video') {
        track.onOpen(
          guard('publisher track open', () => {
            requestKeyframe(r);
            pub.remb = setInterval(() => {
              if (r.publisher !== pub || !isOpen(pub.tracks.video)) return;
              try {
                pub.tracks.video.requestBitrate(config.rembBps);
              } catch {
                // closed in between
              }
            }, 1000);
          }),
        );
      }
    }),
  );
  const gathering = gather(pc);
  try {
    pc.setRemoteDescription(offer, 'offer');
  } catch (err) {
    gathering.cancel();
    unpublish();
    throw new SfuError('invalid', `bad offer: ${String(err)}`);
  }
  try {
    return rewriteHostCandidates(trimPublisherAnswer(await gathering.sdp, { video, audio }), config.publicIp);
  } catch (err) {
    unpublish();
    throw err;
  }
}

/**
 * A viewer's offer (recvonly video and audio, ICE gathered) answered: a sendonly VP8 and Opus
 * track in the viewer's own mids and payload types, with the room's SSRCs.
 *
 * The viewer offers, and the SFU answers as the DTLS server, because libdatachannel starts a
 * peer's DTLS only once that peer's own ICE is connected and drops what arrives before; a client
 * whose first flight is dropped resends it after 1 s (libdatachannel; Chrome after 50 ms). libjuice
 * reports an agent connected as soon as its own check is answered, and answers checks before it
 * knows the other side (RFC 8445). Holding the viewer's offer, the SFU checks the viewer first and
 * is connected, its DTLS server listening, within a loopback or LAN round trip, while its answer
 * still travels the socket; the viewer, the client, can only check (and then send its ClientHello)
 * once it has the answer. When the SFU offered
 * instead, the viewer's checks were answered first, and whichever side was the DTLS client, some
 * first flights were dropped: a 1 s tail in the first keyframe (bench/README.md). The offer's
 * `actpass` is read as `active` (offerAsDtlsClient) so that the SFU answers `passive`, which an
 * `actpass` offer allows.
 */
/** A viewer's sendonly tracks: VP8 and Opus in the mids and payload types its offer chose, with the room's SSRCs. */
function addViewerTracks(pc: PeerConnection, video: OfferedSection, audio: OfferedSection) {
  // Sendonly: a viewer can only receive; whatever media it might send is never read.
  const videoDesc = new ndc.Video(video.mid, 'SendOnly');
  videoDesc.addVideoCodec(video.pt, 'VP8');
  videoDesc.addSSRC(OUT.video.ssrc, 'martillo', 'martillo', 'video');
  const audioDesc = new ndc.Audio(audio.mid, 'SendOnly');
  audioDesc.addOpusCodec(audio.pt);
  audioDesc.addSSRC(OUT.audio.ssrc, 'martillo', 'martillo', 'audio');
  return { videoTrack: pc.addTrack(videoDesc), audioTrack: pc.addTrack(audioDesc), keep: [videoDesc, audioDesc] };
}

async function subscribe(roomId: string, peerId: string, raw: string): Promise<string> {
  const offer = screened(raw);
  const r = rooms.get(roomId);
  if (!r?.publisher) throw new SfuError('not_publishing');
  const wants = viewerSections(offer);
  if (!wants.video || !wants.audio) throw new SfuError('invalid', 'the offer does not receive VP8 video and Opus audio');
  const old = viewers.get(peerId);
  if (old) endViewer(old);
  const pc = new ndc.PeerConnection(`sub-${peerId.slice(0, 8)}`, rtcConfig());
  let added: ReturnType<typeof addViewerTracks>;
  try {
    added = addViewerTracks(pc, wants.video, wants.audio);
  } catch (err) {
    closePc(pc);
    throw new SfuError('invalid', `bad offer: ${String(err)}`);
  }
  const { videoTrack, audioTrack } = added;
  const v: Viewer = {
    id: peerId,
    room: roomId,
    pc,
    tracks: { video: videoTrack, audio: audioTrack },
    pt: { video: wants.video.pt, audio: wants.audio.pt },
    keep: added.keep,
    ready: false,
    started: false,
    waitingKeyframe: true,
  };
  // Only RTCP comes back on a sendonly track; a PLI or FIR becomes a keyframe request to the publisher.
  videoTrack.onMessage(
    guard('viewer RTCP', (message) => {
      const packet = Buffer.isBuffer(message) ? message : Buffer.from(message);
      if (isRtcp(packet) && asksForKeyframe(packet)) {
        counters.pliFromViewers++;
        v.waitingKeyframe = true;
        const current = rooms.get(roomId);
        if (current) requestKeyframe(current);
      }
    }),
  );
  audioTrack.onMessage(() => {});
  // The track usually opens (DTLS-SRTP) just after the connection does; whichever comes last starts the video.
  videoTrack.onOpen(
    guard('viewer track open', () => {
      const current = rooms.get(roomId);
      if (current) startVideo(current, v);
    }),
  );
  pc.onStateChange(
    guard('viewer state', (state) => {
      send({ t: 'viewerState', room: roomId, peerId, state });
      if (state === 'connected') {
        v.ready = true;
        const current = rooms.get(roomId);
        if (current) startVideo(current, v);
      }
      if ((state === 'failed' || state === 'closed') && viewers.get(peerId) === v) endViewer(v);
    }),
  );
  r.viewers.set(peerId, v);
  viewers.set(peerId, v);
  // The answer is made by libdatachannel on the offer, from the tracks above (their mids match).
  const gathering = gather(pc);
  try {
    pc.setRemoteDescription(offerAsDtlsClient(offer), 'offer');
  } catch (err) {
    gathering.cancel();
    endViewer(v);
    throw new SfuError('invalid', `bad offer: ${String(err)}`);
  }
  try {
    return rewriteHostCandidates(await gathering.sdp, config.publicIp);
  } catch (err) {
    endViewer(v);
    throw err;
  }
}

function leave(peerId: string): void {
  const v = viewers.get(peerId);
  if (v) {
    endViewer(v);
    return;
  }
  for (const r of rooms.values()) {
    if (r.publisher?.id !== peerId) continue;
    endPublisher(r.publisher);
    r.publisher = null;
    dropRoomIfEmpty(r);
  }
}

function endRoom(roomId: string): void {
  const r = rooms.get(roomId);
  if (!r) return;
  if (r.publisher) endPublisher(r.publisher);
  r.publisher = null;
  for (const v of [...r.viewers.values()]) endViewer(v);
  rooms.delete(roomId);
}

function stats(): SfuStats {
  let publishers = 0;
  for (const r of rooms.values()) if (r.publisher) publishers++;
  return { rooms: rooms.size, publishers, viewers: viewers.size, ...counters };
}

const isText = (...values: unknown[]) => values.every((value) => typeof value === 'string');

async function handle(req: SfuRequest): Promise<SfuReply> {
  // The server sends well-formed requests; a malformed one is still only refused.
  if (req.t === 'publish' && !isText(req.room, req.pubId)) throw new SfuError('invalid', 'bad publish request');
  if (req.t === 'subscribe' && !isText(req.room, req.peerId)) throw new SfuError('invalid', 'bad subscribe request');
  switch (req.t) {
    case 'publish':
      return { t: 'reply', id: req.id, ok: true, sdp: await publish(req.room, req.pubId, req.sdp) };
    case 'subscribe':
      return { t: 'reply', id: req.id, ok: true, sdp: await subscribe(req.room, req.peerId, req.sdp) };
    case 'leave':
      leave(req.peerId);
      return { t: 'reply', id: req.id, ok: true };
    case 'endRoom':
      endRoom(req.room);
      return { t: 'reply', id: req.id, ok: true };
    case 'stats':
      return { t: 'reply', id: req.id, ok: true, stats: stats() };
    default:
      throw new SfuError('invalid', 'unknown request');
  }
}

process.on('message', (raw: unknown) => {
  const req = raw as SfuRequest;
  if (!req || typeof req !== 'object' || typeof req.id !== 'number') return;
  handle(req).then(send, (err: unknown) => {
    // A refusal (SfuError) is the answer to a bad request; anything else is a bug, logged.
    if (!(err instanceof SfuError)) report(`${String(req.t)} failed`, err);
    const code = err instanceof SfuError ? err.code : 'failed';
    send({ t: 'reply', id: req.id, ok: false, error: code, message: err instanceof Error ? err.message : String(err) });
  });
});

// The server went away (or closed us): nothing is left to serve.
process.on('disconnect', () => {
  for (const r of rooms.values()) endRoom(r.id);
  process.exit(0);
});

send({ t: 'ready', pid: process.pid });
