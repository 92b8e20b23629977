/**
 * The SFU worker's state: its rooms, each with at most one publisher and its viewers, and how a
 * peer or a room ends. One `Sfu` is created by worker.ts and passed to every request.
 */

import type { PeerConnection, Track } from 'node-datachannel';
import { closePc } from './connection.js';
import type { GopCache } from './gop.js';
import type { SfuEvent, SfuStats, SfuWorkerConfig } from './protocol.js';
import { closeTap, type RecordingTap } from './recording-tap.js';
import { type CandidatePolicy, candidatePolicy } from './remote-candidates.js';

export type Kind = 'video' | 'audio';

export interface Publisher {
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

export interface Viewer {
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
  /**
   * 'Ahorro de datos': the viewer takes the audio only. Its offer still has the video section (the
   * answer stays the same shape), but no video packet is ever sent to it, nor a keyframe asked for it.
   */
  audioOnly: boolean;
}

export interface Room {
  id: string;
  publisher: Publisher | null;
  viewers: Map<string, Viewer>;
  /** Its publisher's media copied to a recorder (recording-tap.ts), while the show is recorded. */
  tap: RecordingTap | null;
}

export type Counters = Omit<SfuStats, 'rooms' | 'publishers' | 'viewers'>;

export interface Sfu {
  config: SfuWorkerConfig;
  /** Which of an offer's candidates this SFU may send checks to (remote-candidates.ts). */
  candidates: CandidatePolicy;
  /** Tells the server of a peer's state change. */
  emit: (event: SfuEvent) => void;
  rooms: Map<string, Room>;
  /** Every viewer by its peer id, whichever its room. */
  viewers: Map<string, Viewer>;
  counters: Counters;
}

export function createSfu(config: SfuWorkerConfig, emit: (event: SfuEvent) => void): Sfu {
  return {
    config,
    candidates: candidatePolicy(config.bindAddress ?? null),
    emit,
    rooms: new Map(),
    viewers: new Map(),
    counters: { rtpIn: 0, rtpOut: 0, keyframeRequests: 0, pliFromViewers: 0, gopReplays: 0, rtpRecorded: 0 },
  };
}

/** The room `id`, created empty when it does not exist yet. */
export function ensureRoom(sfu: Sfu, id: string): Room {
  let r = sfu.rooms.get(id);
  if (!r) {
    r = { id, publisher: null, viewers: new Map(), tap: null };
    sfu.rooms.set(id, r);
  }
  return r;
}

export function dropRoomIfEmpty(sfu: Sfu, r: Room): void {
  if (r.publisher || r.viewers.size > 0) return;
  closeTap(r);
  sfu.rooms.delete(r.id);
}

/** Stops the publisher's timers and closes its connection; the caller takes it out of its room. */
export function endPublisher(pub: Publisher): void {
  if (pub.remb) clearInterval(pub.remb);
  if (pub.keyframeTimer) clearTimeout(pub.keyframeTimer);
  pub.remb = null;
  pub.keyframeTimer = null;
  pub.gop.clear();
  closePc(pub.pc);
}

export function endViewer(sfu: Sfu, v: Viewer): void {
  sfu.viewers.delete(v.id);
  const r = sfu.rooms.get(v.room);
  if (r) {
    r.viewers.delete(v.id);
    dropRoomIfEmpty(sfu, r);
  }
  closePc(v.pc);
}

/** Ends the viewer or publisher `peerId`, if it is still here. */
export function leave(sfu: Sfu, peerId: string): void {
  const v = sfu.viewers.get(peerId);
  if (v) {
    endViewer(sfu, v);
    return;
  }
  for (const r of sfu.rooms.values()) {
    if (r.publisher?.id !== peerId) continue;
    endPublisher(r.publisher);
    r.publisher = null;
    dropRoomIfEmpty(sfu, r);
  }
}

export function endRoom(sfu: Sfu, roomId: string): void {
  const r = sfu.rooms.get(roomId);
  if (!r) return;
  if (r.publisher) endPublisher(r.publisher);
  r.publisher = null;
  closeTap(r);
  for (const v of [...r.viewers.values()]) endViewer(sfu, v);
  sfu.rooms.delete(roomId);
}
