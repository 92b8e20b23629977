import { describe, expect, it } from 'vitest';
import { addressKey, clientAddress } from '../../../src/server/realtime/client-address.js';

/** The address per-address limits count a socket under, read as Fastify reads `req.ip`. */

const req = (remoteAddress: string, forwarded?: string) => ({
  socket: { remoteAddress },
  headers: forwarded === undefined ? {} : { 'x-forwarded-for': forwarded },
});

describe('a socket’s client address', () => {
  it('is the peer’s address unless TRUST_PROXY is set, and then the left-most forwarded one', () => {
    expect(clientAddress(req('198.51.100.4', '203.0.113.1'), false)).toBe('198.51.100.4');
    expect(clientAddress(req('10.0.0.2', '203.0.113.1, 10.0.0.1'), true)).toBe('203.0.113.1');
    expect(clientAddress(req('10.0.0.2', ' 203.0.113.1 '), true)).toBe('203.0.113.1');
    // No header, or an empty one: the proxy's own address, as Fastify reads it.
    expect(clientAddress(req('10.0.0.2'), true)).toBe('10.0.0.2');
    expect(clientAddress(req('10.0.0.2', ' , '), true)).toBe('10.0.0.2');
  });

  it('counts an IPv4-mapped address as IPv4, an IPv6 address by its /64, and cuts what is not an address', () => {
    expect(clientAddress(req('::ffff:127.0.0.1'), false)).toBe('127.0.0.1');
    expect(addressKey('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8:1:2::9')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:DB8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(addressKey('x'.repeat(500))).toHaveLength(64);
  });
});
