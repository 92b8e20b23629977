import { BlockList, isIP } from 'node:net';

/**
 * Which of a browser's ICE candidates the embedded SFU may send connectivity checks to (VIDEO.md,
 * "Hostile offers and remote candidates"). An offer comes from anyone, signed out: every
 * candidate it lists gets STUN requests from the server, and a host name is resolved first. So
 * only a UDP candidate at a literal, globally reachable address is kept, a few per offer; host
 * names (mDNS `.local` too), loopback, link-local and private addresses point into the server's
 * own network and are dropped.
 *
 * The SFU needs none of them to reach a viewer: the viewer checks the SFU's own candidates (in
 * its answer), and each check creates a peer-reflexive candidate on the SFU (RFC 8445 §7.3.1.3),
 * which is where the SFU answers. A phone on the same LAN as a server started with HOST=0.0.0.0
 * (README, "Opening it to your LAN") offers `<uuid>.local` or 192.168.x candidates, all dropped,
 * and connects that way to the server's 192.168.x host candidate; so does everyone when the
 * server's candidate is public (VIDEO_PUBLIC_IP). What is lost is the SFU's own check towards a
 * peer it could reach but that cannot reach it. One case where that mattered: a server behind NAT
 * with VIDEO_PUBLIC_IP, and a seller on the server's own LAN (a seller's browser shows its private
 * address once the camera is allowed) whose router does not loop the public address back (no
 * hairpin NAT); a TURN server (ICE_SERVERS, its relay candidates are public) covers it.
 */

/** Distinct candidates kept per offer: a browser lists 1–6 usable ones (srflx, relay, public IPv6). */
export const MAX_REMOTE_CANDIDATES = 10;

/** IANA's special-purpose IPv4 blocks that are not globally reachable (RFC 6890 and its updates). */
const INWARD_V4: [string, number][] = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
];
/**
 * Inside 2000::/3, the only IPv6 space kept: IETF protocol blocks (Teredo, ORCHID…),
 * documentation, and 6to4, whose embedded IPv4 may be a private one. Everything outside it is
 * dropped: ::, ::1, IPv4-mapped and NAT64 forms, unique local fc00::/7, link-local, multicast.
 */
const INWARD_V6: [string, number][] = [
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['3fff::', 20],
];

const inward = new BlockList();
for (const [net, prefix] of INWARD_V4) inward.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of INWARD_V6) inward.addSubnet(net, prefix, 'ipv6');
const globalV6 = new BlockList();
globalV6.addSubnet('2000::', 3, 'ipv6');
const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

export interface CandidatePolicy {
  /**
   * Loopback candidates are kept: only when the SFU itself is bound to loopback
   * (VIDEO_BIND_ADDRESS=127.0.0.1, the tests and the video suite, whose browsers gather 127.0.0.2),
   * where nothing else could be reached anyway.
   */
  allowLoopback: boolean;
}

/** The policy for an SFU bound to `bindAddress` (null: every interface). */
export function candidatePolicy(bindAddress: string | null): CandidatePolicy {
  const family = bindAddress ? isIP(bindAddress) : 0;
  return { allowLoopback: family !== 0 && loopback.check(bindAddress as string, family === 6 ? 'ipv6' : 'ipv4') };
}

/** Whether the SFU may send checks to `address`: a literal IP, globally reachable (or loopback, when allowed). */
export function isReachableAddress(address: string, policy: CandidatePolicy): boolean {
  // A zone id (fe80::1%eth0) names one of the server's own links.
  const family = address.includes('%') ? 0 : isIP(address);
  if (family === 0) return false;
  const type = family === 6 ? 'ipv6' : 'ipv4';
  if (loopback.check(address, type)) return policy.allowLoopback;
  if (type === 'ipv6' && !globalV6.check(address, 'ipv6')) return false;
  return !inward.check(address, type);
}

export interface RemoteCandidate {
  foundation: string;
  component: number;
  transport: string;
  priority: number;
  address: string;
  port: number;
  type: string;
}

const ICE_CHARS = /^[A-Za-z0-9+/]{1,32}$/;
const TOKEN = /^[\x21-\x7e]{1,64}$/;

/**
 * An `a=candidate:` line (RFC 8839 §5.1), or null when it is not one. Extensions must come as
 * name–value pairs; they are read only for their shape.
 */
export function parseCandidate(line: string): RemoteCandidate | null {
  if (!line.startsWith('a=candidate:')) return null;
  const fields = line.slice('a=candidate:'.length).split(' ');
  if (fields.length < 8 || fields.length > 40 || (fields.length - 8) % 2 !== 0) return null;
  const [foundation, component, transport, priority, address, port, typ, type] = fields as [string, ...string[]];
  if (!ICE_CHARS.test(foundation) || typ !== 'typ') return null;
  if (!/^\d{1,3}$/.test(component ?? '') || !/^\d{1,10}$/.test(priority ?? '') || !/^\d{1,5}$/.test(port ?? '')) return null;
  if (!/^(udp|tcp)$/i.test(transport ?? '') || !/^(host|srflx|prflx|relay)$/.test(type ?? '')) return null;
  if (!address || !TOKEN.test(address) || !fields.slice(8).every((f) => TOKEN.test(f))) return null;
  const c = {
    foundation,
    component: Number(component),
    transport: (transport as string).toUpperCase(),
    priority: Number(priority),
    address,
    port: Number(port),
    type: type as string,
  };
  if (c.component < 1 || c.component > 256 || c.priority < 1 || c.priority > 2 ** 32 - 1 || c.port > 65535) return null;
  return c;
}

/**
 * The offer with only the candidates the SFU may check: UDP, component 1 (every browser muxes
 * RTCP), a reachable address and port, each address and port once, at most MAX_REMOTE_CANDIDATES.
 * Kept lines are rewritten to their required fields (no related address, no extensions).
 */
export function screenCandidates(sdp: string, policy: CandidatePolicy): { sdp: string; kept: number; dropped: number } {
  const eol = sdp.includes('\r\n') ? '\r\n' : '\n';
  const seen = new Set<string>();
  const usable = (c: RemoteCandidate | null): c is RemoteCandidate =>
    c !== null && c.transport === 'UDP' && c.component === 1 && c.port !== 0 && isReachableAddress(c.address, policy);
  let dropped = 0;
  const out: string[] = [];
  for (const line of sdp.split(eol)) {
    if (!line.startsWith('a=candidate:')) {
      out.push(line);
      continue;
    }
    const c = parseCandidate(line);
    const key = usable(c) ? `${c.address.toLowerCase()} ${c.port}` : null;
    if (!c || key === null || seen.has(key) || seen.size >= MAX_REMOTE_CANDIDATES) {
      dropped++;
      continue;
    }
    seen.add(key);
    out.push(`a=candidate:${c.foundation} 1 UDP ${c.priority} ${c.address} ${c.port} typ ${c.type}`);
  }
  return { sdp: out.join(eol), kept: seen.size, dropped };
}
