import fc from 'fast-check';

/**
 * Offers an attacker could send instead of a browser's (fast-check arbitraries): a real offer
 * mutated line by line, byte ranges cut out, lines repeated hundreds of times, floods of inward
 * candidates and media sections, numbers out of every range, and plain noise.
 */

const TOKENS = [
  '',
  '0',
  '-1',
  '128',
  '255',
  '65536',
  '4294967296',
  '99999999999999999999',
  'NaN',
  ' ',
  ':',
  '/',
  '\0',
  '\r',
  '\n',
  '\u00ff',
  '\ud800',
  '%s%n',
  'x'.repeat(2000),
  'localhost',
  'foo.local',
  '127.0.0.1',
  '10.0.0.1',
  '169.254.169.254',
  '::1',
  'fe80::1%eth0',
  '::ffff:192.168.0.1',
  'UDP',
  'TCP',
  'typ',
  'host',
  'relay',
  'srflx',
  'prflx',
  'VP8/90000',
  'opus/48000/2',
  'H264/90000',
  'sha-256',
  'sha-1',
  'actpass',
  'active',
  'passive',
  'holdconn',
  'sendonly',
  'recvonly',
  'inactive',
];

const HOSTILE_LINES = [
  'v=0',
  'm=video 9 UDP/TLS/RTP/SAVPF 96',
  'm=audio 9 UDP/TLS/RTP/SAVPF 111',
  'm=application 9 UDP/DTLS/SCTP webrtc-datachannel',
  'm=video 0 UDP/TLS/RTP/SAVPF 96',
  'm=video 9 RTP/AVP 0',
  'm=text 9 UDP/TLS/RTP/SAVPF 96',
  'm=video 99999 UDP/TLS/RTP/SAVPF 300 -1 abc',
  'a=mid:0',
  'a=mid:',
  `a=mid:${'m'.repeat(5000)}`,
  'a=rtpmap:96 VP8/90000',
  'a=rtpmap:300 VP8/90000',
  'a=rtpmap:99999999999 VP8/90000',
  'a=rtpmap:111 opus/48000/2',
  'a=rtpmap:96 opus/48000/2',
  'a=fmtp:96 apt=96',
  'a=rtcp-fb:96 nack pli',
  'a=setup:holdconn',
  'a=setup:',
  'a=ice-ufrag:',
  'a=ice-pwd:',
  'a=ice-ufrag:a',
  'a=ice-options:ice-lite',
  'a=ice-lite',
  'a=fingerprint:sha-256 00',
  'a=fingerprint:md5 00:11',
  `a=fingerprint:sha-256 ${Array(32).fill('ZZ').join(':')}`,
  'a=candidate:1 1 UDP 2122252543 localhost 9 typ host',
  'a=candidate:1 1 UDP 2122252543 metadata.google.internal 80 typ host',
  'a=candidate:1 1 UDP 2122252543 169.254.169.254 80 typ host',
  'a=candidate:1 1 UDP 2122252543 10.0.0.1 53 typ host',
  'a=candidate:1 1 UDP 2122252543 127.0.0.1 1 typ host',
  'a=candidate:1 1 TCP 2122252543 127.0.0.1 22 typ host tcptype active',
  'a=candidate:1 1 UDP 0 0.0.0.0 0 typ host',
  'a=candidate:1 99999 UDP 2122252543 1.2.3.4 9 typ host',
  'a=candidate:1 1 UDP 2122252543 1.2.3.4 9 typ',
  'a=candidate:1 1 UDP 2122252543 ::ffff:127.0.0.1 9 typ relay raddr ::1 rport 1',
  'a=candidate:',
  'a=end-of-candidates',
  'a=group:BUNDLE 0 1 2 3 4 5 6 7 8 9',
  'a=group:BUNDLE',
  'a=group:LS',
  'a=msid:a b',
  'a=ssrc:4294967295 cname:x',
  'a=ssrc:99999999999 cname:x',
  'a=ssrc-group:FID 1',
  'a=ssrc-group:SIM 1 2 3 4 5 6 7 8 9',
  'a=extmap:0 urn:x',
  'a=extmap:256 urn:x',
  'a=extmap:15/sendrecv urn:ietf:params:rtp-hdrext:sdes:mid',
  'a=rid:1 send pt=96;max-width=99999999',
  'a=simulcast:send 1;2;3',
  'a=sctp-port:0',
  'a=max-message-size:-1',
  'a=sendrecv',
  'a=inactive',
  'a=rtcp:0 IN IP4 10.0.0.1',
  'c=IN IP4 10.0.0.1',
  'c=IN IP6 ::1',
  'c=IN IP4 localhost',
  'b=AS:99999999999',
  'o=- 1 1 IN IP4 0.0.0.0',
  's=-',
  't=0 0',
  '=',
  'a=',
  'a:',
  'x',
];

const token = fc.constantFrom(...TOKENS);
const hostileLine = fc.constantFrom(...HOSTILE_LINES);

/** A line: a hostile one, tokens glued, or noise. */
const line = fc.oneof(
  { weight: 4, arbitrary: hostileLine },
  { weight: 2, arbitrary: fc.array(token, { maxLength: 8 }).map((t) => t.join(' ')) },
  { weight: 1, arbitrary: fc.string({ maxLength: 80 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 40, unit: 'binary' }) },
);

/**
 * Breakages that leave the codecs and mids alone, so the SFU hands the offer to its peer library,
 * which refuses it: the path that once left a rejection unhandled.
 */
const BREAKAGES: ((sdp: string) => string)[] = [
  (sdp) => sdp.replace(/^a=ice-ufrag:.*\r\n/gm, ''),
  (sdp) => sdp.replace(/^a=ice-pwd:.*\r\n/gm, ''),
  (sdp) => sdp.replace(/^a=fingerprint:.*\r\n/gm, ''),
  (sdp) => sdp.replace(/^a=fingerprint:(\S+) .*$/gm, 'a=fingerprint:$1 00:11:22'),
  (sdp) => sdp.replace(/^a=fingerprint:\S+/gm, 'a=fingerprint:sha-999'),
  (sdp) => sdp.replace(/^a=fingerprint:(\S+) .*$/gm, `a=fingerprint:$1 ${Array(32).fill('ZZ').join(':')}`),
  (sdp) => sdp.replace(/^a=ice-ufrag:.*$/gm, 'a=ice-ufrag:'),
  (sdp) => sdp.replace(/^a=setup:.*$/gm, 'a=setup:holdconn'),
  (sdp) => sdp.replace(/^a=setup:.*$/gm, 'a=setup:'),
  (sdp) => sdp.replace(/^m=(\w+) (\d+) \S+/gm, 'm=$1 $2 RTP/AVP'),
  (sdp) => sdp.replace(/^m=(\w+) \d+/gm, 'm=$1 99999999999'),
  (sdp) => sdp.replace(/^a=group:BUNDLE .*$/gm, 'a=group:BUNDLE 7 8 9'),
  (sdp) => sdp.replace(/^a=candidate:.*$/gm, 'a=candidate:1 1 UDP 1 1.2.3.4 9 typ'),
  (sdp) => sdp.replace(/^v=0/, 'v=1'),
  (sdp) => sdp.replace(/^m=video/m, 'm=video\r\nm=video'),
];

/** Mutations of `base` (an offer), and whole offers built from nothing. */
export function hostileOffer(bases: string[]): fc.Arbitrary<string> {
  const base = fc.constantFrom(...bases);
  const baseLines = base.map((sdp) => sdp.split('\r\n'));
  return fc.oneof(
    // what the peer library refuses, one or two breakages at a time
    {
      weight: 4,
      arbitrary: fc
        .tuple(base, fc.array(fc.constantFrom(...BREAKAGES), { minLength: 1, maxLength: 2 }))
        .map(([sdp, breaks]) => breaks.reduce((out, f) => f(out), sdp)),
    },
    // lines replaced, removed or inserted
    fc.tuple(baseLines, fc.nat(80), fc.nat(80), fc.array(line, { maxLength: 6 })).map(([ls, a, b, add]) => {
      const out = [...ls];
      out.splice(Math.min(a, b) % (out.length + 1), Math.abs(a - b) % 4, ...add);
      return out.join('\r\n');
    }),
    // a token written into a line
    fc.tuple(baseLines, fc.nat(80), token, fc.nat(120)).map(([ls, i, t, at]) => {
      const out = [...ls];
      const k = i % out.length;
      const target = out[k] ?? '';
      out[k] = target.slice(0, at) + t + target.slice(at);
      return out.join('\r\n');
    }),
    // a range of bytes cut out (a truncated or spliced offer)
    fc.tuple(base, fc.nat(8000), fc.nat(8000)).map(([sdp, a, b]) => sdp.slice(0, Math.min(a, b)) + sdp.slice(Math.max(a, b))),
    // one line (its own or a hostile one) repeated up to 400 times: candidate and section floods
    fc.tuple(baseLines, fc.nat(80), fc.oneof(hostileLine, fc.constant(null)), fc.integer({ min: 2, max: 400 })).map(([ls, i, extra, n]) => {
      const out = [...ls];
      const k = i % out.length;
      out.splice(k, 0, ...Array<string>(n).fill(extra ?? out[k] ?? ''));
      return out.join('\r\n');
    }),
    // whole media sections repeated
    fc.tuple(base, fc.integer({ min: 2, max: 60 })).map(([sdp, n]) => {
      const [head, ...sections] = sdp.split(/\r\n(?=m=)/);
      return [head, ...Array.from({ length: n }, () => sections).flat()].join('\r\n');
    }),
    // built from nothing
    fc.array(line, { maxLength: 60 }).map((ls) => ['v=0', ...ls].join('\r\n')),
    fc.string({ maxLength: 300 }),
    // LF only, or no line ends at all
    base.map((sdp) => sdp.replaceAll('\r\n', '\n')),
    base.map((sdp) => sdp.replaceAll('\r\n', ' ')),
  );
}
