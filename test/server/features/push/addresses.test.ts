import { describe, expect, it } from 'vitest';
import { checkedAddresses, isPublicAddress, PrivateAddressError, pinnedLookup, type ResolvedAddress } from '../../../../src/server/features/push/addresses.js';

/** The push sender checks a host's addresses once, then its sockets connect to those and nothing else. */

const PUBLIC: ResolvedAddress[] = [
  { address: '93.184.215.14', family: 4 },
  { address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c', family: 6 },
];

function lookupOf(pinned: Map<string, ResolvedAddress[]>, hostname: string, options: { family?: number; all?: boolean }) {
  return new Promise<{ err: NodeJS.ErrnoException | null; address: unknown; family?: number }>((resolve) => {
    pinnedLookup(pinned)(hostname, options as never, (err, address, family) => resolve({ err, address, family }));
  });
}

describe('isPublicAddress', () => {
  it("takes the push services' addresses, IPv4 and IPv6, as public", () => {
    // Google's, Mozilla's and Apple's push services answer on public IPv4 addresses as well as IPv6.
    for (const address of ['8.8.8.8', '1.1.1.1', '142.250.190.10', '93.184.215.14', '2a00:1450:4001:82a::200a', '2606:2800:21f:cb07::1']) {
      expect(isPublicAddress(address), address).toBe(true);
    }
  });

  it('refuses private, loopback, link-local, shared and reserved addresses, and IPv4 ones behind an IPv6 spelling', () => {
    for (const address of [
      '10.0.0.1',
      '127.0.0.1',
      '169.254.169.254',
      '172.16.5.4',
      '192.168.1.1',
      '100.64.1.1',
      '0.0.0.0',
      '224.0.0.1',
      '::1',
      '::',
      'fe80::1',
      'fd00::1',
      '::ffff:8.8.8.8',
      '::ffff:10.0.0.1',
      '64:ff9b::808:808',
      '2002:808:808::1',
      'no-es-una-ip',
    ]) {
      expect(isPublicAddress(address), address).toBe(false);
    }
  });
});

describe('checkedAddresses', () => {
  it('keeps every address of a host whose addresses are all public', () => {
    expect(checkedAddresses('fcm.googleapis.com', PUBLIC)).toEqual(PUBLIC);
  });

  it('refuses a host with one private address among public ones, and a host with none', () => {
    expect(() => checkedAddresses('mixto.example.com', [...PUBLIC, { address: '10.0.0.7', family: 4 }])).toThrow(PrivateAddressError);
    expect(() => checkedAddresses('casa.example.com', [{ address: '::1', family: 6 }])).toThrow(PrivateAddressError);
    expect(() => checkedAddresses('nada.example.com', [])).toThrow(/no address/);
  });
});

describe('pinnedLookup', () => {
  const pinned = new Map([['fcm.googleapis.com', PUBLIC]]);

  it('answers the checked addresses, by family, one or all', async () => {
    expect(await lookupOf(pinned, 'fcm.googleapis.com', {})).toMatchObject({ err: null, address: '93.184.215.14', family: 4 });
    expect(await lookupOf(pinned, 'fcm.googleapis.com', { family: 6 })).toMatchObject({ err: null, address: PUBLIC[1]?.address, family: 6 });
    expect((await lookupOf(pinned, 'fcm.googleapis.com', { all: true })).address).toEqual(PUBLIC);
  });

  it('answers nothing for a host that was not checked, or a family it has no address of', async () => {
    expect((await lookupOf(pinned, 'otro.example.com', {})).err?.code).toBe('ENOTFOUND');
    const v4only = new Map([['solo4.example.com', [{ address: '93.184.215.14', family: 4 }]]]);
    expect((await lookupOf(v4only, 'solo4.example.com', { family: 6 })).err?.code).toBe('ENOTFOUND');
  });
});
