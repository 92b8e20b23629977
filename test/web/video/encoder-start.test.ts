import { describe, expect, it } from 'vitest';
import { PUBLISH_START_KBPS, withStartBitrate } from '../../../src/web/video/encoder-start';

/** An answer as the embedded SFU gives a seller: VP8 and Opus only, without an fmtp line for VP8. */
const EMBEDDED_ANSWER = [
  'v=0',
  'o=rtc 1 0 IN IP4 127.0.0.1',
  's=-',
  't=0 0',
  'a=group:BUNDLE 0 1',
  'm=video 9 UDP/TLS/RTP/SAVPF 96',
  'c=IN IP4 0.0.0.0',
  'a=mid:0',
  'a=recvonly',
  'a=rtpmap:96 VP8/90000',
  'a=rtcp-fb:96 nack',
  'a=rtcp-fb:96 goog-remb',
  'm=audio 9 UDP/TLS/RTP/SAVPF 111',
  'c=IN IP4 0.0.0.0',
  'a=mid:1',
  'a=recvonly',
  'a=rtpmap:111 opus/48000/2',
  'a=fmtp:111 minptime=10;useinbandfec=1',
  '',
].join('\r\n');

/** Janus's answer: VP8 with its retransmissions (rtx), and an fmtp line already on VP8. */
const JANUS_ANSWER = [
  'v=0',
  's=VideoRoom 1234',
  'm=audio 9 UDP/TLS/RTP/SAVPF 111',
  'a=rtpmap:111 opus/48000/2',
  'm=video 9 UDP/TLS/RTP/SAVPF 96 97',
  'a=rtpmap:96 VP8/90000',
  'a=fmtp:96 max-fr=30;x-google-start-bitrate=300',
  'a=rtcp-fb:96 goog-remb',
  'a=rtpmap:97 rtx/90000',
  'a=fmtp:97 apt=96',
  '',
].join('\n');

describe('the start bitrate a seller is answered with', () => {
  it("adds an fmtp line after a video codec's rtpmap, and leaves audio alone", () => {
    const out = withStartBitrate(EMBEDDED_ANSWER);
    const lines = out.split('\r\n');
    const rtpmap = lines.indexOf('a=rtpmap:96 VP8/90000');
    expect(lines[rtpmap + 1]).toBe(`a=fmtp:96 x-google-start-bitrate=${PUBLISH_START_KBPS}`);
    expect(out.match(/x-google-start-bitrate/g)).toHaveLength(1);
    expect(lines).toContain('a=fmtp:111 minptime=10;useinbandfec=1');
    // Nothing else moved: one line more, same line endings.
    expect(lines).toHaveLength(EMBEDDED_ANSWER.split('\r\n').length + 1);
    expect(out.endsWith('\r\n')).toBe(true);
  });

  it('replaces a start bitrate already there, keeps the other parameters, and skips rtx', () => {
    const lines = withStartBitrate(JANUS_ANSWER, 1200).split('\n');
    expect(lines).toContain('a=fmtp:96 max-fr=30;x-google-start-bitrate=1200');
    expect(lines).toContain('a=fmtp:97 apt=96');
    expect(lines.filter((l) => l.startsWith('a=fmtp:96'))).toHaveLength(1);
    expect(lines.filter((l) => l.startsWith('a=fmtp:97'))).toHaveLength(1);
  });

  it('is unchanged when applied twice, and leaves an answer without video alone', () => {
    const once = withStartBitrate(EMBEDDED_ANSWER);
    expect(withStartBitrate(once)).toBe(once);
    const audioOnly = EMBEDDED_ANSWER.slice(EMBEDDED_ANSWER.indexOf('m=audio'));
    expect(withStartBitrate(audioOnly)).toBe(audioOnly);
  });

  it('starts high enough that Chrome sends 1280x720 from the first frame (under 500 kb/s it drops to 640x480 or less)', () => {
    expect(PUBLISH_START_KBPS).toBeGreaterThanOrEqual(500);
    // and below the SFUs' REMB (src/server/providers/video/embedded.ts, janus.ts: 1.5 Mb/s).
    expect(PUBLISH_START_KBPS).toBeLessThan(1500);
  });
});
