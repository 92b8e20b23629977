import { describe, expect, it } from 'vitest';
import {
  asksForKeyframe,
  isVp8KeyframeStart,
  ndcIceServers,
  payloadTypeOf,
  rewriteHostCandidates,
  trimPublisherAnswer,
  viewerSections,
} from '../../../../src/server/providers/video/sfu/sdp.js';

/** The embedded SFU's SDP rewriting (VIDEO.md's facts), on SDP shaped like libdatachannel's and Chrome's. */

const ANSWER = [
  'v=0',
  'o=rtc 1 0 IN IP4 127.0.0.1',
  's=-',
  't=0 0',
  'm=video 4000 UDP/TLS/RTP/SAVPF 96 97 98',
  'c=IN IP4 10.0.0.5',
  'a=mid:0',
  'a=recvonly',
  'a=rtpmap:96 VP8/90000',
  'a=rtcp-fb:96 nack pli',
  'a=rtcp-fb:96 transport-cc',
  'a=rtpmap:97 rtx/90000',
  'a=fmtp:97 apt=96',
  'a=rtpmap:98 VP9/90000',
  'a=extmap:3 http://www.ietf.org/id/draft-holmer-rmcat-transport-wide-cc-extensions-01',
  'a=candidate:1 1 UDP 2122317823 10.0.0.5 4000 typ host',
  'a=candidate:2 1 UDP 1686052607 203.0.113.9 4000 typ srflx raddr 10.0.0.5 rport 4000',
  'm=audio 4000 UDP/TLS/RTP/SAVPF 111 9',
  'c=IN IP4 10.0.0.5',
  'a=mid:1',
  'a=rtpmap:111 opus/48000/2',
  'a=fmtp:111 minptime=10;useinbandfec=1',
  'a=rtpmap:9 G722/8000',
  '',
].join('\r\n');

describe('the SFU’s SDP rewriting', () => {
  it('finds payload types by codec', () => {
    expect(payloadTypeOf(ANSWER, 'VP8/90000')).toBe(96);
    expect(payloadTypeOf(ANSWER, 'opus/48000')).toBe(111);
    expect(payloadTypeOf(ANSWER, 'H264/90000')).toBeNull();
  });

  it('answers the seller with VP8 and Opus only, without transport-cc', () => {
    const sdp = trimPublisherAnswer(ANSWER, { video: 96, audio: 111 });
    expect(sdp).toContain('m=video 4000 UDP/TLS/RTP/SAVPF 96\r\n');
    expect(sdp).toContain('m=audio 4000 UDP/TLS/RTP/SAVPF 111\r\n');
    expect(sdp).toContain('a=rtcp-fb:96 nack pli');
    for (const gone of ['transport-cc', 'transport-wide-cc', 'VP9', 'rtx', 'G722', 'apt=96']) expect(sdp).not.toContain(gone);
    expect(sdp).toContain('a=candidate:1 1 UDP');
  });

  it('announces VIDEO_PUBLIC_IP in host candidates only', () => {
    const sdp = rewriteHostCandidates(ANSWER, '198.51.100.20');
    expect(sdp).toContain('a=candidate:1 1 UDP 2122317823 198.51.100.20 4000 typ host');
    expect(sdp).toContain('a=candidate:2 1 UDP 1686052607 203.0.113.9 4000 typ srflx raddr 10.0.0.5 rport 4000');
    expect(sdp).toContain('c=IN IP4 198.51.100.20');
    expect(sdp).not.toContain('c=IN IP4 10.0.0.5');
    expect(rewriteHostCandidates(ANSWER, null)).toBe(ANSWER);
  });

  it('reads a viewer’s offer for the mids and payload types it wants VP8 and Opus in', () => {
    // Shaped like Firefox's: audio first, its own payload types, and a data channel.
    const firefox = [
      'v=0',
      'm=audio 9 UDP/TLS/RTP/SAVPF 109 9 0',
      'a=mid:0',
      'a=recvonly',
      'a=rtpmap:109 opus/48000/2',
      'm=video 9 UDP/TLS/RTP/SAVPF 120 124 126',
      'a=mid:1',
      'a=recvonly',
      'a=rtpmap:126 H264/90000',
      'a=rtpmap:120 VP8/90000',
      'm=application 9 UDP/DTLS/SCTP webrtc-datachannel',
      'a=mid:2',
      '',
    ].join('\r\n');
    expect(viewerSections(firefox)).toEqual({ video: { mid: '1', pt: 120 }, audio: { mid: '0', pt: 109 } });
    expect(viewerSections(ANSWER)).toEqual({ video: { mid: '0', pt: 96 }, audio: { mid: '1', pt: 111 } });
    // A section that cannot receive, or has no VP8, does not count.
    expect(viewerSections(firefox.replace('a=mid:1\r\na=recvonly', 'a=mid:1\r\na=inactive')).video).toBeNull();
    expect(viewerSections(ANSWER.replace('a=rtpmap:96 VP8/90000', 'a=rtpmap:96 H264/90000')).video).toBeNull();
    expect(viewerSections('v=0\r\n')).toEqual({ video: null, audio: null });
  });

  it('reads ICE_SERVERS for libdatachannel, skipping what it cannot use', () => {
    expect(
      ndcIceServers([
        { urls: 'stun:stun.example.com:19302' },
        { urls: ['turn:turn.example.com?transport=tcp', 'turns:turn.example.com:443'], username: 'u', credential: 'p' },
        { urls: 'https://not-ice.example.com' },
      ]),
    ).toEqual([
      { hostname: 'stun.example.com', port: 19302 },
      { hostname: 'turn.example.com', port: 3478, username: 'u', password: 'p', relayType: 'TurnTcp' },
      { hostname: 'turn.example.com', port: 443, username: 'u', password: 'p', relayType: 'TurnTls' },
    ]);
  });

  it('spots a PLI or FIR inside a compound RTCP packet', () => {
    const rr = [0x81, 201, 0, 7, ...new Array(28).fill(0)];
    const pli = [0x81, 206, 0, 2, 0, 0, 0, 1, 0, 0, 0, 2];
    const remb = [0x8f, 206, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0];
    expect(asksForKeyframe(Buffer.from([...rr, ...pli]))).toBe(true);
    expect(asksForKeyframe(Buffer.from([...rr, ...remb]))).toBe(false);
    expect(asksForKeyframe(Buffer.from([0x84, 206, 0, 2, 0, 0, 0, 1, 0, 0, 0, 2]))).toBe(true);
    expect(asksForKeyframe(Buffer.from([1, 2]))).toBe(false);
  });

  it('tells the start of a VP8 keyframe from the rest (RFC 7741)', () => {
    const header = [0x80, 96, 0, 1, 0, 0, 0, 1, 0, 0, 0, 2];
    // S=1, PID=0, then P=0: a keyframe starts here.
    expect(isVp8KeyframeStart(Buffer.from([...header, 0x10, 0x00, 0x9d, 0x01]))).toBe(true);
    // With the extended descriptor (X, I with a 15-bit picture id).
    expect(isVp8KeyframeStart(Buffer.from([...header, 0x90, 0x80, 0x81, 0x23, 0x00]))).toBe(true);
    // P=1: an interframe; S=0: not the first packet; PID=1: another partition.
    expect(isVp8KeyframeStart(Buffer.from([...header, 0x10, 0x01]))).toBe(false);
    expect(isVp8KeyframeStart(Buffer.from([...header, 0x00, 0x00]))).toBe(false);
    expect(isVp8KeyframeStart(Buffer.from([...header, 0x11, 0x00]))).toBe(false);
    // Truncated packets are not keyframes (nor errors).
    expect(isVp8KeyframeStart(Buffer.from(header))).toBe(false);
    expect(isVp8KeyframeStart(Buffer.from([...header, 0x90]))).toBe(false);
  });
});
