import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_SDP_BYTES } from '../../../../src/domain/video.js';
import { OFFER_LIMITS, offerProblem } from '../../../../src/server/providers/video/sfu/offer-check.js';
import { payloadTypeOf, viewerSections } from '../../../../src/server/providers/video/sfu/sdp.js';
import { offerOf, recvOnlyPeer } from '../../../support/rtp-peers.js';
import { CHROME_PUBLISHER, CHROME_VIEWER, FIREFOX_VIEWER } from './browser-offers.js';

/**
 * The server's check of an offer before it reaches the SFU's process: browsers' offers pass, and
 * anything malformed or not carrying VP8 (and, for a viewer, Opus) is refused.
 */

/** `sdp` with `from` replaced by `to` (exactly once: the fixture must contain it). */
function edit(sdp: string, from: string, to: string): string {
  expect(sdp.split(from)).toHaveLength(2);
  return sdp.replace(from, to);
}

describe('offer check', () => {
  it('passes the offers real browsers and libdatachannel make', async () => {
    expect(offerProblem(CHROME_VIEWER, 'subscribe')).toBeNull();
    expect(offerProblem(FIREFOX_VIEWER, 'subscribe')).toBeNull();
    expect(offerProblem(CHROME_PUBLISHER, 'publish')).toBeNull();
    // LF line ends are read too.
    expect(offerProblem(CHROME_VIEWER.replaceAll('\r\n', '\n'), 'subscribe')).toBeNull();
    const { pc } = recvOnlyPeer('offer-check', { video: 96, audio: 111 });
    try {
      expect(offerProblem(await offerOf(pc), 'subscribe')).toBeNull();
    } finally {
      pc.close();
    }
  });

  it('refuses what a viewer or a seller cannot use', () => {
    expect(offerProblem(CHROME_VIEWER, 'publish')).toBe('the video section does not send');
    expect(offerProblem(CHROME_PUBLISHER, 'subscribe')).toBe('does not receive VP8 video');
    expect(offerProblem(CHROME_VIEWER.replaceAll('VP8/90000', 'H264/90000'), 'subscribe')).toBe('does not receive VP8 video');
    expect(offerProblem(CHROME_VIEWER.replaceAll('opus/48000/2', 'G722/8000'), 'subscribe')).toBe('does not receive Opus audio');
    expect(offerProblem(CHROME_PUBLISHER.replaceAll('VP8/90000', 'VP9/90000'), 'publish')).toBe('no VP8 video');
    // A rejected (port 0) section does not count.
    expect(offerProblem(edit(CHROME_VIEWER, 'm=audio 9 ', 'm=audio 0 '), 'subscribe')).toBe('does not receive Opus audio');
  });

  it('refuses malformed offers, each for its reason', () => {
    const cases: [unknown, string][] = [
      [42, 'not text'],
      [`${CHROME_VIEWER}a=x:${'y'.repeat(MAX_SDP_BYTES)}\r\n`, 'too large'],
      [edit(CHROME_VIEWER, 's=-', 's=señal'), 'not printable ASCII lines'],
      [edit(CHROME_VIEWER, 's=-', 's=\u0000'), 'not printable ASCII lines'],
      [edit(CHROME_VIEWER, 'a=mid:0\r\n', 'a=mid:0\ra=mid:2\r\n'), 'not printable ASCII lines'],
      [edit(CHROME_VIEWER, 's=-', 's=\t'), 'not printable ASCII lines'],
      [CHROME_VIEWER.replace('v=0', 'v=1'), 'does not start with v=0'],
      [`\r\n${CHROME_VIEWER}`, 'does not start with v=0'],
      [edit(CHROME_VIEWER, 's=-\r\n', ''), 'no o=, s= and t= lines'],
      [CHROME_VIEWER.split('m=video')[0] as string, 'no media section'],
      [edit(CHROME_VIEWER, 'a=rtcp-rsize\r\n', `a=x:${'y'.repeat(OFFER_LIMITS.lineChars)}\r\n`), 'a line is too long'],
      [edit(CHROME_VIEWER, 'a=rtcp-rsize', 'X=rtcp-rsize'), 'a line is not type=value'],
      [edit(CHROME_VIEWER, 'a=rtcp-rsize', 'a rtcp-rsize'), 'a line is not type=value'],
      [`${CHROME_VIEWER}${'m=audio 9 UDP/TLS/RTP/SAVPF 0\r\na=mid:x\r\n'.repeat(OFFER_LIMITS.sections)}`, 'too many media sections'],
      [edit(CHROME_VIEWER, 'm=audio 9 UDP/TLS/RTP/SAVPF', 'm=text 9 UDP/TLS/RTP/SAVPF'), 'a media section of another kind'],
      [edit(CHROME_VIEWER, 'm=audio 9 ', 'm=audio 70000 '), 'a media section with a bad port'],
      [edit(CHROME_VIEWER, 'm=audio 9 ', 'm=audio -1 '), 'a media section with a bad port'],
      [edit(CHROME_VIEWER, 'm=audio 9 UDP/TLS/RTP/SAVPF', 'm=audio 9 RTP/AVP'), 'a media section with another protocol'],
      [
        edit(CHROME_VIEWER, 'm=audio 9 UDP/TLS/RTP/SAVPF 111 63 9 0 8 13 110 126', 'm=audio 9 UDP/TLS/RTP/SAVPF'),
        'a media section with too few or too many formats',
      ],
      [
        edit(CHROME_VIEWER, 'm=audio 9 UDP/TLS/RTP/SAVPF 111 63', `m=audio 9 UDP/TLS/RTP/SAVPF 111 63 ${Array.from({ length: 64 }, (_, i) => i).join(' ')}`),
        'a media section with too few or too many formats',
      ],
      [edit(CHROME_VIEWER, 'SAVPF 111 63', 'SAVPF 111 300'), 'a media section with a bad payload type'],
      [edit(CHROME_VIEWER, 'SAVPF 111 63', 'SAVPF 111 111'), 'a media section with a bad payload type'],
      [edit(CHROME_VIEWER, 'a=mid:1\r\n', ''), 'a section without one a=mid'],
      [edit(CHROME_VIEWER, 'a=mid:1\r\n', 'a=mid:1\r\na=mid:2\r\n'), 'a section without one a=mid'],
      [edit(CHROME_VIEWER, 'a=mid:1', 'a=mid:0'), 'two sections with one mid'],
      [edit(CHROME_VIEWER, 'a=mid:1', 'a=mid:a b'), 'a bad a=mid'],
      [edit(CHROME_VIEWER, 'a=mid:1', `a=mid:${'m'.repeat(33)}`), 'a bad a=mid'],
      [edit(CHROME_VIEWER, 'a=rtcp-rsize\r\n', 'a=rtcp-rsize\r\na=sendonly\r\n'), 'a section with two directions'],
      [CHROME_VIEWER.replaceAll('a=ice-ufrag:Zk2x\r\n', ''), 'a section without ICE credentials or fingerprint'],
      [CHROME_VIEWER.replaceAll(/a=fingerprint:.*\r\n/g, ''), 'a section without ICE credentials or fingerprint'],
      [CHROME_VIEWER.replace('a=ice-ufrag:Zk2x', 'a=ice-ufrag:Z k'), 'a bad ICE user fragment'],
      [CHROME_VIEWER.replace('a=ice-pwd:0vq3mXH8rPj2Kd4q7Lk9sT1u', 'a=ice-pwd:short'), 'a bad ICE password'],
      [CHROME_VIEWER.replace(':D6:BC\r\n', ':D6\r\n'), 'a bad DTLS fingerprint'],
      [CHROME_VIEWER.replace('a=fingerprint:sha-256', 'a=fingerprint:md5'), 'a bad DTLS fingerprint'],
      [CHROME_VIEWER.replace('a=setup:actpass', 'a=setup:holdconn'), 'a bad a=setup'],
      [CHROME_VIEWER.replace('typ srflx', 'typ relayed'), 'a bad candidate'],
      [CHROME_VIEWER.replace('a=extmap:1 ', 'a=extmap:0 '), 'a bad a=extmap'],
      [CHROME_VIEWER.replace('a=extmap:1 ', 'a=extmap:256 '), 'a bad a=extmap'],
      [edit(CHROME_VIEWER, 'a=rtpmap:108 ulpfec/90000', 'a=rtpmap:109 ulpfec/90000'), 'a bad a=rtpmap'],
      [edit(CHROME_VIEWER, 'a=rtpmap:108 ulpfec/90000', 'a=rtpmap:96 ulpfec/90000'), 'a bad a=rtpmap'],
      [edit(CHROME_VIEWER, 'a=rtpmap:108 ulpfec/90000', 'a=rtpmap:108 ulp fec/90000'), 'a bad a=rtpmap'],
      [edit(CHROME_VIEWER, 'a=fmtp:97 apt=96', 'a=fmtp:77 apt=96'), 'a bad a=fmtp'],
      [edit(CHROME_VIEWER, 'a=rtcp-fb:96 nack pli', 'a=rtcp-fb:x nack pli'), 'a bad a=rtcp-fb'],
      [edit(CHROME_PUBLISHER, 'a=ssrc:632943048 cname', 'a=ssrc:99999999999 cname'), 'a bad a=ssrc'],
    ];
    for (const [sdp, reason] of cases) expect(offerProblem(sdp, 'subscribe') ?? offerProblem(sdp, 'publish'), reason).toBe(reason);
  });

  it('never throws, and whatever it passes the SFU’s own reading agrees with', () => {
    const lines = CHROME_VIEWER.split('\r\n');
    const hostile = fc.constantFrom(
      '',
      'a=mid:0',
      'm=video 9 UDP/TLS/RTP/SAVPF 96',
      'a=rtpmap:96 VP8/90000',
      'a=recvonly',
      'a=sendonly',
      'a=inactive',
      'm=audio 0 UDP/TLS/RTP/SAVPF 111',
      'a=rtpmap:111 opus/48000/2',
      'a=candidate:1 1 UDP 1 localhost 9 typ host',
      '\u00ff',
      '\r',
      ':',
    );
    const offer = fc.oneof(
      // The untouched offer too, so the validator's acceptance is always exercised, whatever the draw.
      { arbitrary: fc.constant(lines.join('\r\n')), weight: 1 },
      fc.array(fc.oneof(fc.constantFrom(...lines), hostile, fc.string({ maxLength: 40 })), { maxLength: 120 }).map((ls) => ls.join('\r\n')),
      fc.tuple(fc.nat(lines.length), fc.nat(lines.length), fc.array(fc.oneof(hostile, fc.constantFrom(...lines)), { maxLength: 4 })).map(([a, b, add]) => {
        const out = [...lines];
        out.splice(Math.min(a, b), Math.abs(a - b), ...add);
        return out.join('\r\n');
      }),
    );
    let passed = 0;
    fc.assert(
      fc.property(offer, (sdp) => {
        if (offerProblem(sdp, 'subscribe') === null) {
          passed++;
          const wants = viewerSections(sdp);
          expect(wants.video).not.toBeNull();
          expect(wants.audio).not.toBeNull();
        }
        if (offerProblem(sdp, 'publish') === null) expect(payloadTypeOf(sdp, 'VP8/90000')).not.toBeNull();
      }),
      { numRuns: 500 },
    );
    // Valid offers (the untouched one, and mutations that keep it usable) were checked for the agreement above.
    expect(passed).toBeGreaterThan(10);
  });
});
