import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FfmpegTools, probe } from '../../../../../src/server/features/replays/media/index.js';
import { findJanusPpRec, groupJanusFiles, type JanusStream, joinJanusStreams, readMjrHeader } from '../../../../../src/server/features/replays/media/janus.js';
import { writeJanusJoin } from '../../../../support/mjr.js';
import { makeSyntheticMedia, type SyntheticMedia } from '../../../../support/synthetic-media.js';
import { makeTempDir, nice, requireTools } from './fixtures.js';

let tools: FfmpegTools;
let ppRec: string;
let media: SyntheticMedia;
let dir: string;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  tools = await requireTools();
  const found = await findJanusPpRec();
  if (!found) throw new Error('these tests need janus-pp-rec on PATH (apt-get install janus-tools)');
  ppRec = found;
  media = await makeSyntheticMedia({ seconds: 3 });
  ({ dir, cleanup } = await makeTempDir());
});
afterAll(() => cleanup?.());

const streamsOf = async (names: (string | null)[]): Promise<JanusStream[]> => {
  const streams: JanusStream[] = [];
  for (const name of names) {
    if (!name) continue;
    const file = path.join(dir, name);
    const header = await readMjrHeader(file);
    if (header) streams.push({ file, header });
  }
  return streams;
};

describe("Janus's recordings", () => {
  it("reads a file's kind, codec and the moment of its first packet from its header", async () => {
    const join = await writeJanusJoin(dir, { room: 7, feed: 11, createdUs: 1_796_000_000_000_000, media, audioOffsetMs: -300 });
    expect(await readMjrHeader(path.join(dir, join.video))).toEqual({ kind: 'video', codec: 'vp8', firstPacketAt: 1_796_000_000_050 });
    expect(await readMjrHeader(path.join(dir, join.audio as string))).toEqual({ kind: 'audio', codec: 'opus', firstPacketAt: 1_796_000_000_050 - 300 });
  });

  it('takes a file that is empty, truncated, of another format or with a broken header for no recording', async () => {
    const cases: [string, Buffer][] = [
      ['empty.mjr', Buffer.alloc(0)],
      ['magic-only.mjr', Buffer.from('MJR00002')],
      ['truncated.mjr', Buffer.concat([Buffer.from('MJR00002'), Buffer.from([0, 200]), Buffer.from('{"t":"v"')])],
      ['old-format.mjr', Buffer.from('MJR00001video\0\0\0\0\0\0\0\0')],
      ['not-json.mjr', Buffer.concat([Buffer.from('MJR00002'), Buffer.from([0, 5]), Buffer.from('hello')])],
      ['no-time.mjr', Buffer.concat([Buffer.from('MJR00002'), Buffer.from([0, 19]), Buffer.from('{"t":"v","c":"vp8"}')])],
    ];
    for (const [name, bytes] of cases) {
      await writeFile(path.join(dir, name), bytes);
      expect(await readMjrHeader(path.join(dir, name)), name).toBeNull();
    }
  });

  it("groups each publisher join's audio and video, a second join of the same feed apart, in the order they were made", () => {
    const names = [
      'videoroom-5-user-9-1796042597857914-audio-1.mjr',
      'videoroom-5-user-9-1796042597855304-video-0.mjr',
      // The same feed publishing again a minute later.
      'videoroom-5-user-9-1796042657855304-video-0.mjr',
      'videoroom-5-user-9-1796042657857000-audio-1.mjr',
      // A reload: a new feed.
      'videoroom-5-user-44-1796042600000000-video-0.mjr',
      'notes.txt',
      'videoroom-5-user-9-oops-video-0.mjr',
    ];
    expect(groupJanusFiles(names)).toEqual([
      ['videoroom-5-user-9-1796042597855304-video-0.mjr', 'videoroom-5-user-9-1796042597857914-audio-1.mjr'],
      ['videoroom-5-user-44-1796042600000000-video-0.mjr'],
      ['videoroom-5-user-9-1796042657855304-video-0.mjr', 'videoroom-5-user-9-1796042657857000-audio-1.mjr'],
    ]);
  });

  it('puts a join’s video and audio into one WebM, the later stream starting at its own offset', async () => {
    const join = await writeJanusJoin(dir, { room: 7, feed: 12, createdUs: 1_796_000_100_000_000, media, audioOffsetMs: 500 });
    const output = path.join(dir, 'joined.webm');
    const joined = await joinJanusStreams(tools, { ppRec, streams: await streamsOf([join.video, join.audio]), output, workDir: dir, nice });
    expect(joined.startedAt).toBe(join.videoFirstAt);
    const info = await probe(tools, output);
    expect(info.video?.codec).toBe('vp8');
    expect(info.audio?.codec).toBe('opus');
    // Three seconds of video from zero, and three of audio from half a second in.
    expect(Math.abs(info.durationMs - 3500)).toBeLessThan(300);
  });

  it('makes a join without audio into a silent WebM', async () => {
    const join = await writeJanusJoin(dir, { room: 7, feed: 13, createdUs: 1_796_000_200_000_000, media, noAudio: true });
    const output = path.join(dir, 'silent.webm');
    const joined = await joinJanusStreams(tools, { ppRec, streams: await streamsOf([join.video]), output, workDir: dir, nice });
    expect(joined.startedAt).toBe(join.videoFirstAt);
    const info = await probe(tools, output);
    expect(info.video?.codec).toBe('vp8');
    expect(info.audio).toBeNull();
  });

  it('refuses a join with neither audio nor video, with a reason the seller can read', async () => {
    await expect(joinJanusStreams(tools, { ppRec, streams: [], output: path.join(dir, 'none.webm'), workDir: dir, nice })).rejects.toThrow(
      'la grabación de Janus no tiene audio ni video',
    );
  });
});
