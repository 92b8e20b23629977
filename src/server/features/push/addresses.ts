import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import type { PUSH_FIELD_MESSAGES } from '../../../domain/push.js';

/**
 * Where the push sender may connect: a push service on the public internet over https, never an
 * address on the server's own network (SSRF). An endpoint is checked when a browser subscribes
 * (its scheme, an address written in it, names that can only be local) and again at each send,
 * when its name is resolved: every address the name resolves to is checked (`checkedAddresses`),
 * and the connection goes to the checked address (`pinnedLookup`), so a name that changes meanwhile
 * gains nothing.
 * Origins the operator lists in PUSH_ALLOWED_ORIGINS skip both checks (tests, a local push service).
 */

// One list per family: a BlockList checks an IPv4 address against its IPv6 rules too, as
// ::ffff:a.b.c.d, so the IPv4-mapped rule below would otherwise refuse every IPv4 address.
const blockedV4 = new BlockList();
const blockedV6 = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  blockedV4.addSubnet(net, bits, 'ipv4');
}
for (const [net, bits] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['::', 96], // IPv4-compatible (deprecated)
  ['::ffff:0:0', 96], // IPv4-mapped: an IPv4 address behind an IPv6 spelling
  ['64:ff9b::', 96], // NAT64: likewise
  ['64:ff9b:1::', 48], // local NAT64
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4: embeds an IPv4 address
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const) {
  blockedV6.addSubnet(net, bits, 'ipv6');
}

/** Whether an IP address (v4 or v6) may be reached by the sender: not private, loopback, link-local, CGNAT, multicast or reserved. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  return family === 4 ? !blockedV4.check(address, 'ipv4') : !blockedV6.check(address, 'ipv6');
}

export type EndpointProblem = keyof typeof PUSH_FIELD_MESSAGES;

/** The URL's host without IPv6 brackets or a final dot. */
function bareHost(url: URL): string {
  return url.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
}

/** Whether an endpoint's origin is one the operator allowed on any address (PUSH_ALLOWED_ORIGINS). */
export function isAllowedOrigin(endpoint: string | URL, allowedOrigins: readonly string[]): boolean {
  const url = typeof endpoint === 'string' ? new URL(endpoint) : endpoint;
  return allowedOrigins.includes(url.origin);
}

/**
 * What is wrong with an endpoint before any name is resolved, or null: not https, credentials in
 * it, an address in a private range, a name that only a local network can answer.
 */
export function endpointProblem(endpoint: string, allowedOrigins: readonly string[]): EndpointProblem | null {
  if (!URL.canParse(endpoint)) return 'pushEndpointInvalid';
  const url = new URL(endpoint);
  if (url.username || url.password) return 'pushEndpointInvalid';
  if (isAllowedOrigin(url, allowedOrigins)) return null;
  if (url.protocol !== 'https:') return 'pushEndpointNotAllowed';
  const host = bareHost(url);
  if (isIP(host)) return isPublicAddress(host) ? null : 'pushEndpointNotAllowed';
  if (!host.includes('.')) return 'pushEndpointNotAllowed';
  if (/(^|\.)(localhost|local|localdomain|internal|intranet|lan|home|corp|home\.arpa)$/.test(host)) return 'pushEndpointNotAllowed';
  return null;
}

/** Resolves a host name to every address it has (dns.lookup by default; tests give their own). */
export type Resolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

export const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/** Refused at send: the name resolves to an address on a private network. */
export class PrivateAddressError extends Error {
  override name = 'PrivateAddressError';
  readonly code = 'EPUSHPRIVATE';
}

/** A resolved address, as dns.lookup gives it. */
export interface ResolvedAddress {
  address: string;
  family: number;
}

/**
 * The addresses a push to `hostname` may connect to: all of them, once every one is public. Refused
 * when ANY is not (one private answer among public ones could be picked on a retry), and when
 * there is none.
 */
export function checkedAddresses(hostname: string, addresses: readonly ResolvedAddress[]): ResolvedAddress[] {
  if (addresses.length === 0) throw Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' });
  const bad = addresses.find((a) => !isPublicAddress(a.address));
  if (bad) throw new PrivateAddressError(`${hostname} resolves to a private address (${bad.address})`);
  return [...addresses];
}

/**
 * A `lookup` for a push's socket that answers the addresses already checked for its host, and
 * nothing else: the connection goes where the check looked.
 */
export function pinnedLookup(pinned: ReadonlyMap<string, readonly ResolvedAddress[]>): LookupFunction {
  return (hostname, options, callback) => {
    const addresses = pinned.get(hostname);
    if (!addresses) return callback(Object.assign(new Error(`${hostname} was not checked`), { code: 'ENOTFOUND' }), '', 0);
    const wanted = options.family === 4 || options.family === 6 ? addresses.filter((a) => a.family === options.family) : addresses;
    if (wanted.length === 0) return callback(Object.assign(new Error(`${hostname} has no IPv${options.family} address`), { code: 'ENOTFOUND' }), '', 0);
    if (options.all) return (callback as unknown as (err: null, all: readonly ResolvedAddress[]) => void)(null, wanted);
    const first = wanted[0] as ResolvedAddress;
    return callback(null, first.address, first.family);
  };
}
