/**
 * The SFU worker's forwarding path: each RTP packet from a room's publisher, rewritten to the
 * room's payload type and SSRC, to every viewer that can take it (retyped for a viewer whose offer
 * chose another payload type); keyframe requests to the publisher; and the start of a viewer's
 * video, from the cached group of pictures (gop.ts) or the next keyframe.
 */

import { isOpen } from './connection.js';
import { copyToTap } from './recording-tap.js';
import type { Counters, Kind, Publisher, Room, Viewer } from './rooms.js';
import { isRtcp, isVp8KeyframeStart } from './sdp.js';

/**
 * What every viewer receives: fixed SSRCs per room, whoever publishes, and these payload types
 * unless the viewer's offer chose others (Firefox offers VP8 as 120): then a copy is retyped.
 */
export const OUT = { video: { pt: 96, ssrc: 0x4d560001 }, audio: { pt: 111, ssrc: 0x4d410001 } } as const;
/**
 * Keyframe requests to one publisher are coalesced to one per this interval (a burst of joins),
 * and repeated at it while a viewer still waits: Chrome ignores a request that comes within 300 ms
 * of its last keyframe (its EncoderRtcpFeedback), so a request inside that window would be lost.
 */
const KEYFRAME_EVERY_MS = 350;

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

/** One packet from `pub`'s `kind` track (rewritten in place), forwarded to the room's viewers. */
export function forward(counters: Counters, r: Room, pub: Publisher, kind: Kind, packet: Buffer): void {
  if (packet.length < 12 || isRtcp(packet)) return;
  // Only the primary codec: retransmissions (rtx) would need their own SSRC towards viewers.
  const marker = packet[1] as number;
  if ((marker & 0x7f) !== pub.pt[kind] || r.publisher !== pub) return;
  counters.rtpIn++;
  const out = OUT[kind];
  packet[1] = (marker & 0x80) | out.pt;
  packet.writeUInt32BE(out.ssrc, 8);
  const keyframe = kind === 'video' && isVp8KeyframeStart(packet);
  if (kind === 'video') pub.gop.push(packet, keyframe, Date.now());
  if (r.tap && copyToTap(r, pub.id, kind, packet, keyframe)) counters.rtpRecorded++;
  retypedCopies.clear();
  for (const v of r.viewers.values()) {
    const target = v.tracks[kind];
    if (!v.ready || !isOpen(target)) continue;
    if (kind === 'video') {
      if (v.audioOnly) continue;
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
}

/** A viewer, or the recorder, still waits for its first keyframe. */
function someoneWaits(r: Room): boolean {
  if (r.tap && !r.tap.started && r.tap.pubId === r.publisher?.id) return true;
  for (const v of r.viewers.values()) if (v.ready && v.waitingKeyframe) return true;
  return false;
}

export function requestKeyframe(counters: Counters, r: Room): void {
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
      if (r.publisher === pub && someoneWaits(r)) requestKeyframe(counters, r);
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
export function startVideo(counters: Counters, r: Room, v: Viewer): void {
  if (!v.ready || v.started || v.audioOnly || !isOpen(v.tracks.video)) return;
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
  requestKeyframe(counters, r);
}
