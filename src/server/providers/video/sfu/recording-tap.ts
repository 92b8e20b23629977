/**
 * A room's recording tap: the publisher's RTP, as the forwarding path rewrote it (OUT's payload
 * types and SSRCs), copied over loopback UDP to the recorder the server started for the show
 * (features/replays/recorder.ts: ffmpeg, which writes it to a file without re-encoding).
 *
 * The copy begins at a keyframe, so the file's first picture decodes; audio waits for that
 * keyframe too, so both streams start together (the recorder has no RTCP to line them up by).
 * The moment of that keyframe is the recording's clock's zero: the server is told ('recordStarted').
 * A copy serves one publisher: a seller who reloads publishes anew, and the server starts a new
 * segment for it.
 */

import dgram from 'node:dgram';

type Kind = 'video' | 'audio';
/** What a tap needs of a room (rooms.ts's Room): its one tap. */
interface Room {
  tap: RecordingTap | null;
}

export interface RecordingTap {
  pubId: string;
  ports: Record<Kind, number>;
  socket: dgram.Socket;
  /** The first keyframe went: from then on every packet is copied. */
  started: boolean;
  /** Told once, when the first keyframe goes. */
  onStart: (at: number) => void;
}

/** The recorder listens on the loopback only (its SDP's `-localaddr`). */
const RECORDER_HOST = '127.0.0.1';

export function openTap(r: Room, opts: { pubId: string; ports: Record<Kind, number>; onStart: (at: number) => void }): RecordingTap {
  closeTap(r);
  const socket = dgram.createSocket('udp4');
  // A recorder that is gone answers with ICMP unreachable, which a later send reports: nothing to do.
  socket.on('error', () => {});
  socket.unref();
  const tap: RecordingTap = { pubId: opts.pubId, ports: opts.ports, socket, started: false, onStart: opts.onStart };
  r.tap = tap;
  return tap;
}

export function closeTap(r: Room): void {
  const tap = r.tap;
  if (!tap) return;
  r.tap = null;
  try {
    tap.socket.close();
  } catch {
    // already closed
  }
}

/** One forwarded packet of `pubId`'s, copied when the room is recorded; answers whether it was. */
export function copyToTap(r: Room, pubId: string, kind: Kind, packet: Buffer, keyframe: boolean): boolean {
  const tap = r.tap;
  if (!tap || tap.pubId !== pubId) return false;
  if (!tap.started) {
    if (!keyframe) return false;
    tap.started = true;
    tap.onStart(Date.now());
  }
  // Nothing changes a packet after the forwarding path sent it on (a retyped viewer's gets a copy),
  // so the send may still hold the buffer after this returns.
  tap.socket.send(packet, tap.ports[kind], RECORDER_HOST);
  return true;
}
