/**
 * SDP rewriting for the embedded SFU (VIDEO.md's facts). Pure string functions, so they are
 * unit-tested without a peer connection.
 */

/** The payload type a section offers for `codec` ('VP8/90000', 'opus/48000'), or null (also when it is not one, 0–127). */
export function payloadTypeOf(sdp: string, codec: string): number | null {
  const escaped = codec.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const match = new RegExp(`^a=rtpmap:(\\d{1,3}) ${escaped}`, 'im').exec(sdp);
  const pt = match ? Number(match[1]) : null;
  return pt !== null && pt <= 127 ? pt : null;
}

/**
 * The answer to a seller, trimmed to one codec per kind (VP8, Opus) and without transport-cc:
 * Chrome then estimates its bandwidth from our REMB, which it otherwise ignores (VIDEO.md: its
 * estimate collapses). Sections of other kinds pass unchanged.
 */
export function trimPublisherAnswer(sdp: string, keep: { video: number | null; audio: number | null }): string {
  const eol = sdp.includes('\r\n') ? '\r\n' : '\n';
  let kept: string | null = null;
  const out: string[] = [];
  for (const line of sdp.split(eol)) {
    if (line.startsWith('m=')) {
      const kind = line.slice(2).split(' ')[0];
      const pt = kind === 'video' ? keep.video : kind === 'audio' ? keep.audio : undefined;
      kept = pt === undefined ? null : String(pt);
      if (kept !== null) {
        const fields = line.split(' ');
        out.push([...fields.slice(0, 3), ...fields.slice(3).filter((f) => f === kept)].join(' '));
        continue;
      }
    }
    if (kept !== null) {
      if (/transport-cc|transport-wide-cc/.test(line)) continue;
      const format = /^a=(?:rtpmap|fmtp|rtcp-fb):(\d+)/.exec(line);
      if (format && format[1] !== kept) continue;
    }
    out.push(line);
  }
  return out.join(eol);
}

/**
 * VIDEO_PUBLIC_IP: the host candidates carry the machine's own address (a private one behind a
 * 1:1 NAT or in a container), so the browser is told the public address with the same port.
 */
export function rewriteHostCandidates(sdp: string, publicIp: string | null): string {
  if (!publicIp) return sdp;
  const family = publicIp.includes(':') ? 'IP6' : 'IP4';
  const eol = sdp.includes('\r\n') ? '\r\n' : '\n';
  return sdp
    .split(eol)
    .map((line) => {
      if (line.startsWith('c=IN ')) return `c=IN ${family} ${publicIp}`;
      if (!line.startsWith('a=candidate:')) return line;
      const fields = line.split(' ');
      // foundation component transport priority address port typ host …
      if (fields.length < 8 || fields[6] !== 'typ' || fields[7] !== 'host') return line;
      fields[4] = publicIp;
      return fields.join(' ');
    })
    .join(eol);
}

/** libdatachannel's form of an ICE server (node-datachannel's IceServer). */
export interface NdcIceServer {
  hostname: string;
  port: number;
  username?: string;
  password?: string;
  relayType?: 'TurnUdp' | 'TurnTcp' | 'TurnTls';
}

/** ICE_SERVERS (browser RTCIceServer form) for libdatachannel; URLs it cannot read are skipped. */
export function ndcIceServers(servers: { urls: string | string[]; username?: string; credential?: string }[]): (string | NdcIceServer)[] {
  const out: (string | NdcIceServer)[] = [];
  for (const server of servers) {
    for (const url of Array.isArray(server.urls) ? server.urls : [server.urls]) {
      const match = /^(stun|turns?):(\[[^\]]+\]|[^:?]+)(?::(\d+))?(?:\?transport=(udp|tcp))?$/i.exec(url.trim());
      if (!match) continue;
      const scheme = (match[1] as string).toLowerCase();
      const hostname = (match[2] as string).replace(/^\[|\]$/g, '');
      const port = match[3] ? Number(match[3]) : scheme === 'turns' ? 5349 : 3478;
      if (scheme === 'stun') {
        out.push({ hostname, port });
        continue;
      }
      out.push({
        hostname,
        port,
        ...(server.username !== undefined ? { username: server.username } : {}),
        ...(server.credential !== undefined ? { password: server.credential } : {}),
        relayType: scheme === 'turns' ? 'TurnTls' : match[4]?.toLowerCase() === 'tcp' ? 'TurnTcp' : 'TurnUdp',
      });
    }
  }
  return out;
}

/** RTCP PLI (RFC 4585, PT 206 FMT 1) or FIR (RFC 5104, PT 206 FMT 4) anywhere in a compound packet. */
export function asksForKeyframe(packet: Uint8Array): boolean {
  let offset = 0;
  while (offset + 4 <= packet.length) {
    const first = packet[offset] as number;
    const type = packet[offset + 1] as number;
    const length = (((packet[offset + 2] as number) << 8) | (packet[offset + 3] as number)) + 1;
    if ((first & 0xc0) !== 0x80) return false;
    const fmt = first & 0x1f;
    if (type === 206 && (fmt === 1 || fmt === 4)) return true;
    offset += length * 4;
  }
  return false;
}

/** RTCP shares the port with RTP (rtcp-mux): RFC 5761 tells them apart by the second byte. */
export function isRtcp(packet: Uint8Array): boolean {
  const type = packet[1] ?? 0;
  return type >= 192 && type <= 223;
}

/**
 * Whether an RTP packet carries the start of a VP8 keyframe (RFC 7741: S=1 and partition 0 in the
 * payload descriptor, then P=0 in the payload header). The SFU uses it to know which viewers still
 * wait for their first picture.
 */
export function isVp8KeyframeStart(packet: Buffer): boolean {
  if (packet.length < 13) return false;
  const first = packet[0] as number;
  let offset = 12 + 4 * (first & 0x0f);
  if (first & 0x10) {
    if (packet.length < offset + 4) return false;
    offset += 4 + 4 * packet.readUInt16BE(offset + 2);
  }
  if (packet.length <= offset) return false;
  const d0 = packet[offset] as number;
  if (!(d0 & 0x10) || d0 & 0x07) return false;
  let p = offset + 1;
  if (d0 & 0x80) {
    const d1 = packet[p++] ?? 0;
    if (d1 & 0x80) p += (packet[p] ?? 0) & 0x80 ? 2 : 1;
    if (d1 & 0x40) p++;
    if (d1 & 0x30) p++;
  }
  return p < packet.length && ((packet[p] as number) & 0x01) === 0;
}

/** Where a viewer's offer wants each kind: the section's mid and the payload type it gave the codec. */
export interface OfferedSection {
  mid: string;
  pt: number;
}

/**
 * A viewer's offer, read for its first video section offering VP8 and its first audio section
 * offering Opus: the SFU answers each in the viewer's own mid and payload type.
 */
export function viewerSections(sdp: string): { video: OfferedSection | null; audio: OfferedSection | null } {
  const found: { video: OfferedSection | null; audio: OfferedSection | null } = { video: null, audio: null };
  const sections = sdp.split(/\r?\nm=/).slice(1);
  for (const section of sections) {
    const kind = section.split(' ')[0];
    if (kind !== 'video' && kind !== 'audio') continue;
    if (found[kind]) continue;
    // A mid as browsers write it ('0', 'video', 'sdparta_0'): libdatachannel is handed nothing else.
    const mid = /^a=mid:([A-Za-z0-9_.\-~+]{1,32})\r?$/m.exec(section)?.[1];
    const pt = payloadTypeOf(section, kind === 'video' ? 'VP8/90000' : 'opus/48000');
    if (mid && pt !== null && !/^a=(inactive|sendonly)\r?$/m.test(section)) found[kind] = { mid, pt };
  }
  return found;
}
