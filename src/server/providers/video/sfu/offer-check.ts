import { MAX_SDP_BYTES } from '../../../../domain/video.js';
import { parseCandidate } from './remote-candidates.js';

/**
 * Whether a browser's offer is one the embedded SFU serves (VIDEO.md, "Hostile offers and remote
 * candidates"): checked by the server before the offer reaches the SFU's process, so that
 * anything else is refused to that socket alone, with `unsupported_offer`. It reads the offer as
 * browsers write it (JSEP): session lines, then 1–8 media sections, each with its mid, its ICE
 * credentials and DTLS fingerprint (or the session's), RTP formats that its attributes agree
 * with, and the codecs the SFU forwards (VP8, Opus). Pure, so it is unit-tested line by line.
 */

export type OfferKind = 'publish' | 'subscribe';

export const OFFER_LIMITS = {
  sections: 8,
  /** Payload types in one m= line: Chrome lists about 30 for video. */
  formats: 64,
  lineChars: 1024,
} as const;

interface Section {
  kind: string;
  port: number;
  formats: Set<number>;
  mids: string[];
  directions: string[];
  /** Payload type → 'vp8/90000', 'opus/48000/2'… (lower case). */
  codecs: Map<number, string>;
  ice: { ufrag: number; pwd: number; fingerprint: number };
}

const RTP_PROTOCOLS = new Set(['UDP/TLS/RTP/SAVPF', 'TCP/TLS/RTP/SAVPF', 'UDP/TLS/RTP/SAVP']);
const SCTP_PROTOCOLS = new Set(['UDP/DTLS/SCTP', 'TCP/DTLS/SCTP', 'DTLS/SCTP']);
const DIRECTIONS = new Set(['sendrecv', 'sendonly', 'recvonly', 'inactive']);
/** Hash name → bytes in its fingerprint. */
const FINGERPRINT_BYTES: Record<string, number> = { 'sha-1': 20, 'sha-224': 28, 'sha-256': 32, 'sha-384': 48, 'sha-512': 64 };
const FINGERPRINT = /^(sha-1|sha-224|sha-256|sha-384|sha-512) ([0-9A-Fa-f]{2}(?::[0-9A-Fa-f]{2})*)$/;
const PT = /^(\d{1,3})$/;

function fingerprintOk(value: string): boolean {
  const m = FINGERPRINT.exec(value);
  return Boolean(m && (m[2] as string).split(':').length === FINGERPRINT_BYTES[(m[1] as string).toLowerCase()]);
}

/** Why `sdp` is not an offer the SFU serves for `kind`, or null when it is. The reason is for logs. */
export function offerProblem(sdp: unknown, kind: OfferKind): string | null {
  if (typeof sdp !== 'string') return 'not text';
  if (Buffer.byteLength(sdp) > MAX_SDP_BYTES) return 'too large';
  // Browsers write SDP in printable ASCII, lines ending in CRLF (or LF); anything else is not theirs.
  if (!/^[\x20-\x7e\r\n]*$/.test(sdp) || /\r(?!\n)/.test(sdp)) return 'not printable ASCII lines';
  const lines = sdp.split(/\r?\n/);
  if (lines.at(-1) === '') lines.pop();
  if (lines[0] !== 'v=0') return 'does not start with v=0';
  const session = { o: 0, s: 0, t: 0, ice: { ufrag: 0, pwd: 0, fingerprint: 0 } };
  const sections: Section[] = [];
  for (const line of lines.slice(1)) {
    if (line.length > OFFER_LIMITS.lineChars) return 'a line is too long';
    if (!/^[a-z]=/.test(line)) return 'a line is not type=value';
    const type = line[0] as string;
    const value = line.slice(2);
    const current = sections.at(-1);
    if (type === 'm') {
      const section = mediaLine(value);
      if (typeof section === 'string') return section;
      if (sections.push(section) > OFFER_LIMITS.sections) return 'too many media sections';
      continue;
    }
    if (!current) {
      if (type === 'o' || type === 's' || type === 't') session[type]++;
      else if (type === 'a') {
        const problem = attribute(value, null, session.ice);
        if (problem) return problem;
      }
      continue;
    }
    if (type === 'a') {
      const problem = attribute(value, current, current.ice);
      if (problem) return problem;
    }
  }
  if (session.o !== 1 || session.s !== 1 || session.t < 1) return 'no o=, s= and t= lines';
  if (sections.length === 0) return 'no media section';
  const mids = new Set<string>();
  for (const section of sections) {
    if (section.mids.length !== 1) return 'a section without one a=mid';
    const mid = section.mids[0] as string;
    if (mids.has(mid)) return 'two sections with one mid';
    mids.add(mid);
    if (section.directions.length > 1) return 'a section with two directions';
    if (section.port === 0) continue;
    const has = (key: 'ufrag' | 'pwd' | 'fingerprint') => section.ice[key] + session.ice[key] > 0;
    if (!has('ufrag') || !has('pwd') || !has('fingerprint')) return 'a section without ICE credentials or fingerprint';
  }
  return kind === 'publish' ? publisherCodecs(sections) : viewerCodecs(sections);
}

function mediaLine(value: string): Section | string {
  const [kind, port, proto, ...formats] = value.split(' ');
  if (!/^\d{1,5}$/.test(port ?? '') || Number(port) > 65535) return 'a media section with a bad port';
  const section: Section = {
    kind: kind ?? '',
    port: Number(port),
    formats: new Set(),
    mids: [],
    directions: [],
    codecs: new Map(),
    ice: { ufrag: 0, pwd: 0, fingerprint: 0 },
  };
  if (kind === 'application') {
    if (!SCTP_PROTOCOLS.has(proto ?? '') || formats.length !== 1) return 'a bad data channel section';
    return section;
  }
  if (kind !== 'audio' && kind !== 'video') return 'a media section of another kind';
  if (!RTP_PROTOCOLS.has(proto ?? '')) return 'a media section with another protocol';
  if (formats.length === 0 || formats.length > OFFER_LIMITS.formats) return 'a media section with too few or too many formats';
  for (const f of formats) {
    if (!PT.test(f) || Number(f) > 127 || section.formats.has(Number(f))) return 'a media section with a bad payload type';
    section.formats.add(Number(f));
  }
  return section;
}

/** One `a=` line, in a section or (null) at session level: what it says is recorded, what it breaks is returned. */
function attribute(value: string, section: Section | null, ice: Section['ice']): string | null {
  const colon = value.indexOf(':');
  const name = colon < 0 ? value : value.slice(0, colon);
  const arg = colon < 0 ? '' : value.slice(colon + 1);
  switch (name) {
    case 'ice-ufrag':
      ice.ufrag++;
      return /^[A-Za-z0-9+/]{4,256}$/.test(arg) ? null : 'a bad ICE user fragment';
    case 'ice-pwd':
      ice.pwd++;
      return /^[A-Za-z0-9+/]{22,256}$/.test(arg) ? null : 'a bad ICE password';
    case 'fingerprint':
      ice.fingerprint++;
      return fingerprintOk(arg) ? null : 'a bad DTLS fingerprint';
    case 'setup':
      return /^(actpass|active|passive)$/.test(arg) ? null : 'a bad a=setup';
    case 'candidate':
      return parseCandidate(`a=${value}`) ? null : 'a bad candidate';
    case 'extmap': {
      const id = Number(/^(\d{1,3})(?:\/(?:sendrecv|sendonly|recvonly|inactive))? \S+( \S+)*$/.exec(arg)?.[1]);
      return id >= 1 && id <= 255 ? null : 'a bad a=extmap';
    }
  }
  if (!section) return null;
  if (DIRECTIONS.has(name) && colon < 0) section.directions.push(name);
  else if (name === 'mid') {
    if (!/^[A-Za-z0-9_.\-~+]{1,32}$/.test(arg)) return 'a bad a=mid';
    section.mids.push(arg);
  } else if (name === 'rtpmap') {
    const m = /^(\d{1,3}) ([A-Za-z0-9_.-]{1,32}\/\d{1,6}(?:\/\d{1,2})?)$/.exec(arg);
    const pt = Number(m?.[1]);
    if (!m || !section.formats.has(pt) || section.codecs.has(pt)) return 'a bad a=rtpmap';
    section.codecs.set(pt, (m[2] as string).toLowerCase());
  } else if (name === 'fmtp' || name === 'rtcp-fb') {
    const pt = arg.split(' ')[0] ?? '';
    if (!(name === 'rtcp-fb' && pt === '*') && !(PT.test(pt) && section.formats.has(Number(pt)))) return `a bad a=${name}`;
  } else if (name === 'ssrc') {
    if (!/^\d{1,10} \S/.test(arg) || Number(arg.split(' ')[0]) > 2 ** 32 - 1) return 'a bad a=ssrc';
  }
  return null;
}

/** The payload type the section maps to `codec` ('vp8/90000', 'opus/48000'), or null. */
function ptOf(section: Section, codec: string): number | null {
  for (const [pt, name] of section.codecs) if (name === codec || name.startsWith(`${codec}/`)) return pt;
  return null;
}

const direction = (s: Section) => s.directions[0] ?? 'sendrecv';

/** A seller sends VP8 video (and maybe Opus audio): its first video section must. */
function publisherCodecs(sections: Section[]): string | null {
  const video = sections.find((s) => s.kind === 'video' && s.port !== 0);
  if (!video || ptOf(video, 'vp8/90000') === null) return 'no VP8 video';
  if (!['sendonly', 'sendrecv'].includes(direction(video))) return 'the video section does not send';
  return null;
}

/** A viewer receives VP8 video and Opus audio: a section of each kind that can. */
function viewerCodecs(sections: Section[]): string | null {
  const receives = (s: Section) => s.port !== 0 && ['recvonly', 'sendrecv'].includes(direction(s));
  if (!sections.some((s) => s.kind === 'video' && receives(s) && ptOf(s, 'vp8/90000') !== null)) return 'does not receive VP8 video';
  if (!sections.some((s) => s.kind === 'audio' && receives(s) && ptOf(s, 'opus/48000') !== null)) return 'does not receive Opus audio';
  return null;
}
