import type { IncomingHttpHeaders } from 'node:http';
import { isIP } from 'node:net';

/** Longest address key kept: a forwarded value that is not an address is cut, not stored whole. */
const MAX_KEY_LENGTH = 64;

/**
 * The client's address as the per-address limits count it, read the way Fastify reads `req.ip`
 * (src/server/app.ts): the peer's own address, or with TRUST_PROXY the left-most X-Forwarded-For
 * entry (Fastify's `trustProxy: true` trusts every hop). Only then is the header read at all, so
 * without a proxy a client cannot choose its address. An IPv4-mapped IPv6 address counts as its
 * IPv4 address, and an IPv6 address as its /64: a carrier gives each phone a /64, so one phone
 * can otherwise take a new address per socket.
 */
export function clientAddress(req: { headers: IncomingHttpHeaders; socket: { remoteAddress?: string | undefined } }, trustProxy: boolean): string {
  let address = req.socket.remoteAddress ?? '';
  const forwarded = req.headers['x-forwarded-for'];
  if (trustProxy && typeof forwarded === 'string') {
    const first = forwarded
      .split(',')
      .map((part) => part.trim())
      .find((part) => part !== '');
    if (first) address = first;
  }
  return addressKey(address);
}

/** The key one client's limits are counted under (see clientAddress). */
export function addressKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return mapped[1];
  if (isIP(address) === 6) return `${ipv6Prefix64(address)}::/64`;
  return address.slice(0, MAX_KEY_LENGTH);
}

/** The first four groups of an IPv6 address, expanded (`2001:db8::1` → `2001:db8:0:0`). */
function ipv6Prefix64(address: string): string {
  const [head = '', tail] = address.split('%')[0]?.toLowerCase().split('::') ?? [''];
  const left = head ? head.split(':') : [];
  const right = tail === undefined ? [] : tail ? tail.split(':') : [];
  // An embedded IPv4 tail (::ffff:1.2.3.4 forms aside) takes two groups.
  const groups = (parts: string[]) => parts.flatMap((p) => (p.includes('.') ? ['0', '0'] : [p]));
  const l = groups(left);
  const r = groups(right);
  const full = tail === undefined ? l : [...l, ...Array<string>(Math.max(0, 8 - l.length - r.length)).fill('0'), ...r];
  return full
    .slice(0, 4)
    .map((g) => Number.parseInt(g || '0', 16).toString(16))
    .join(':');
}
