import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { rtp } from './rtp-peers.js';
import { type SyntheticMedia, vp8RtpPayloads } from './synthetic-media.js';

/**
 * A publisher's join as Janus's VideoRoom records it (`.mjr`, version 2, as Janus 1.x's
 * record.c writes it), made of real VP8 and Opus (synthetic-media.ts): janus-pp-rec reads these
 * like Janus's own. For tests that need a Janus recording without a browser publishing into a
 * Janus in a network namespace (the video suite does that: e2e/video/replay.spec.ts).
 *
 * A file is "MJR00002", the header's length (2 bytes), the header (JSON: kind, codec, created and
 * first-packet times in µs), then each packet as "MEET", its arrival in ms since the first (4
 * bytes), its length (2 bytes) and the RTP packet.
 */

export interface JanusJoinOptions {
  room: number;
  feed: number;
  /** When the join's first stream was created (µs since the epoch): in the file names. */
  createdUs: number;
  media: SyntheticMedia;
  /** How long after the video's first packet the audio's first came (negative: before). */
  audioOffsetMs?: number;
  /** Leave the audio out (a seller whose microphone was refused). */
  noAudio?: boolean;
}

function mjr(header: object, packets: { atMs: number; packet: Buffer }[]): Buffer {
  const info = Buffer.from(JSON.stringify(header));
  const parts: Buffer[] = [Buffer.from('MJR00002'), Buffer.alloc(2), info];
  parts[1]?.writeUInt16BE(info.length);
  for (const { atMs, packet } of packets) {
    const frame = Buffer.alloc(10);
    frame.write('MEET', 0, 'latin1');
    frame.writeUInt32BE(Math.max(0, Math.round(atMs)), 4);
    frame.writeUInt16BE(packet.length, 8);
    parts.push(frame, packet);
  }
  return Buffer.concat(parts);
}

/** Writes the join's video (and audio) files into `dir`, named as Janus names them; returns their names. */
export async function writeJanusJoin(
  dir: string,
  opts: JanusJoinOptions,
): Promise<{ video: string; audio: string | null; videoFirstAt: number; audioFirstAt: number | null }> {
  const { media } = opts;
  const videoFirstUs = opts.createdUs + 50_000;
  const video: { atMs: number; packet: Buffer }[] = [];
  let seq = 0;
  media.video.forEach((frame, i) => {
    const payloads = vp8RtpPayloads(frame.data);
    payloads.forEach((payload, j) => {
      video.push({ atMs: i * 40, packet: rtp(96, seq++, i * 3600, 0x1111, payload, j === payloads.length - 1) });
    });
  });
  const name = (kind: string, created: number, index: number) => `videoroom-${opts.room}-user-${opts.feed}-${created}-${kind}-${index}.mjr`;
  const videoName = name('video', opts.createdUs, 0);
  await writeFile(path.join(dir, videoName), mjr({ t: 'v', c: 'vp8', s: opts.createdUs, u: videoFirstUs }, video));
  if (opts.noAudio) return { video: videoName, audio: null, videoFirstAt: videoFirstUs / 1000, audioFirstAt: null };
  const audioFirstUs = videoFirstUs + (opts.audioOffsetMs ?? 0) * 1000;
  const audio = media.audio.map((packet, i) => ({ atMs: i * 20, packet: rtp(111, i, i * 960, 0x2222, packet, false) }));
  const audioName = name('audio', opts.createdUs + 2_600, 1);
  await writeFile(path.join(dir, audioName), mjr({ t: 'a', c: 'opus', s: opts.createdUs + 2_600, u: audioFirstUs }, audio));
  return { video: videoName, audio: audioName, videoFirstAt: videoFirstUs / 1000, audioFirstAt: audioFirstUs / 1000 };
}
