import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

/**
 * Real, decodable media for the synthetic publisher (test/support/rtp-peers.ts), so that what the
 * SFU forwards or records can be probed and transcoded like a browser's stream. ffmpeg encodes it
 * once; the containers are parsed here, so the frames can be sent as RTP one by one.
 */

export interface SyntheticMedia {
  /** VP8 frames at 25 fps, in order. */
  video: { data: Buffer; keyframe: boolean }[];
  /** Opus packets of 20 ms at 48 kHz, without the OpusHead and OpusTags header packets. */
  audio: Buffer[];
  width: number;
  height: number;
}

export interface SyntheticMediaOptions {
  seconds?: number;
  width?: number;
  height?: number;
  /** A keyframe every this many frames (25 a second). */
  keyframeEvery?: number;
  /**
   * The video's bitrate in kb/s (300 by default: enough for tests). Given, it is held constant
   * (a test pattern would otherwise come out far below it), so a bench can send what a browser's
   * camera sends (about 1,500 at 720p).
   */
  videoKbps?: number;
}

const run = promisify(execFile);

// A test file that asks twice (or two files in the same worker) encodes once; the promise is kept so
// that calls made at the same time share one ffmpeg run too.
const cache = new Map<string, Promise<SyntheticMedia>>();

/** Encodes a test pattern (VP8) and a 440 Hz tone (Opus) with ffmpeg and returns their frames and packets. */
export function makeSyntheticMedia(opts: SyntheticMediaOptions = {}): Promise<SyntheticMedia> {
  const resolved = {
    seconds: opts.seconds ?? 4,
    width: opts.width ?? 320,
    height: opts.height ?? 240,
    keyframeEvery: opts.keyframeEvery ?? 25,
    videoKbps: opts.videoKbps ?? 0,
  };
  const key = JSON.stringify(resolved);
  let made = cache.get(key);
  if (!made) {
    made = encode(resolved);
    // A failure is not kept: the next caller tries again and sees the error for itself.
    made.catch(() => cache.delete(key));
    cache.set(key, made);
  }
  return made;
}

async function encode(opts: Required<SyntheticMediaOptions>): Promise<SyntheticMedia> {
  const dir = await mkdtemp(path.join(tmpdir(), 'synthetic-media-'));
  try {
    const ivf = path.join(dir, 'video.ivf');
    const ogg = path.join(dir, 'audio.ogg');
    // The duration goes on the sources: an output option such as -t only applies to the output that
    // follows it, and the other one would then be encoded from an endless source for ever.
    const duration = `duration=${opts.seconds}`;
    const args = [
      ...['-hide_banner', '-loglevel', 'error', '-nostdin', '-y'],
      ...['-f', 'lavfi', '-i', `testsrc=size=${opts.width}x${opts.height}:rate=25:${duration}`],
      ...['-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=48000:${duration}`],
      ...['-map', '0:v', '-c:v', 'libvpx', '-deadline', 'realtime', '-g', String(opts.keyframeEvery)],
      ...(opts.videoKbps > 0 ? ['-b:v', `${opts.videoKbps}k`, '-minrate', `${opts.videoKbps}k`, '-maxrate', `${opts.videoKbps}k`] : ['-b:v', '300k']),
      ...['-f', 'ivf', ivf],
      ...['-map', '1:a', '-c:a', 'libopus', '-frame_duration', '20', '-b:a', '48k', '-f', 'ogg', ogg],
    ];
    try {
      await run('ffmpeg', args, { timeout: 60_000 });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
        throw new Error('ffmpeg is not on PATH: the synthetic publisher needs it to encode real media (Debian: apt-get install ffmpeg)');
      }
      const stderr = (err as { stderr?: string }).stderr?.trim();
      throw new Error(`ffmpeg could not encode the synthetic media${stderr ? `: ${stderr}` : ''}`, { cause: err });
    }
    const [video, audio] = await Promise.all([readFile(ivf).then(ivfFrames), readFile(ogg).then(oggPackets)]);
    // The first two packets of an Ogg Opus stream are its headers (RFC 7845), not sound.
    const sound = audio.slice(2);
    if (video.length === 0 || sound.length === 0) throw new Error('ffmpeg encoded no synthetic media');
    return {
      video: video.map((data) => ({ data, keyframe: isVp8Keyframe(data) })),
      audio: sound,
      width: opts.width,
      height: opts.height,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The VP8 frame tag's first bit (RFC 6386, 9.1) is 0 on a keyframe. */
function isVp8Keyframe(frame: Buffer): boolean {
  return frame.length > 0 && ((frame[0] as number) & 0x01) === 0;
}

/** The frames of an IVF file: a 32-byte file header, then each frame behind 4 bytes of size and 8 of pts (little-endian). */
function ivfFrames(file: Buffer): Buffer[] {
  if (file.length < 32 || file.toString('latin1', 0, 4) !== 'DKIF') throw new Error('not an IVF file');
  const headerSize = file.readUInt16LE(6);
  const frames: Buffer[] = [];
  for (let o = headerSize; o + 12 <= file.length; ) {
    const size = file.readUInt32LE(o);
    o += 12;
    if (o + size > file.length) throw new Error('IVF file cut short');
    frames.push(file.subarray(o, o + size));
    o += size;
  }
  return frames;
}

/**
 * The packets of an Ogg file with one logical stream (RFC 3533): each page is 'OggS', a 27-byte
 * header whose last byte counts the segments, the segment table, then the segments. A packet ends
 * at a lacing value under 255; one that ends a page at 255 goes on in the next page.
 */
function oggPackets(file: Buffer): Buffer[] {
  const packets: Buffer[] = [];
  let pending: Buffer[] = [];
  for (let o = 0; o < file.length; ) {
    if (o + 27 > file.length || file.toString('latin1', o, o + 4) !== 'OggS') throw new Error(`no Ogg page at byte ${o}`);
    const segments = file[o + 26] as number;
    const table = file.subarray(o + 27, o + 27 + segments);
    let body = o + 27 + segments;
    for (const lacing of table) {
      pending.push(file.subarray(body, body + lacing));
      body += lacing;
      if (lacing < 255) {
        packets.push(Buffer.concat(pending));
        pending = [];
      }
    }
    o = body;
  }
  return packets;
}

/**
 * Splits one VP8 frame into RTP payloads (RFC 7741): each starts with a one-byte payload
 * descriptor, S=1 (start of partition 0) on the frame's first and 0 on the rest, then up to
 * `maxPayload` bytes of the frame, so that a packet with its RTP header stays under a usual MTU.
 * The caller sets the RTP marker on the last one.
 */
export function vp8RtpPayloads(frame: Buffer, maxPayload = 1100): Buffer[] {
  const chunk = maxPayload - 1;
  const payloads: Buffer[] = [];
  for (let o = 0; o === 0 || o < frame.length; o += chunk) {
    payloads.push(Buffer.concat([Buffer.from([o === 0 ? 0x10 : 0x00]), frame.subarray(o, o + chunk)]));
  }
  return payloads;
}
