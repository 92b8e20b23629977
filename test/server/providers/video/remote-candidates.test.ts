import { describe, expect, it } from 'vitest';
import {
  candidatePolicy,
  isReachableAddress,
  MAX_REMOTE_CANDIDATES,
  parseCandidate,
  screenCandidates,
} from '../../../../src/server/providers/video/sfu/remote-candidates.js';
import { CHROME_VIEWER, FIREFOX_VIEWER } from './browser-offers.js';

/**
 * Which of an anonymous offer's candidates the SFU may send connectivity checks to: none that
 * points into the server's own network, and a few per offer.
 */

const STRICT = candidatePolicy(null);
const LOOPBACK = candidatePolicy('127.0.0.1');
const candidatesOf = (sdp: string) => sdp.split('\r\n').filter((l) => l.startsWith('a=candidate:'));

describe('remote candidates', () => {
  it('allows loopback only when the SFU itself is bound to loopback', () => {
    expect(LOOPBACK.allowLoopback).toBe(true);
    expect(candidatePolicy('::1').allowLoopback).toBe(true);
    for (const bind of [null, '0.0.0.0', '192.168.1.20', '203.0.113.7', '::']) expect(candidatePolicy(bind).allowLoopback).toBe(false);
  });

  it('keeps only literal, globally reachable addresses', () => {
    for (const address of ['8.8.8.8', '198.51.99.45', '172.32.0.1', '100.128.0.1', '2001:4860:4860::8888', '2a00:1450:4001:80b::200e']) {
      expect(isReachableAddress(address, STRICT), address).toBe(true);
    }
    const inward = [
      // host names, resolved by the SFU: mDNS, DNS, and the numeric forms getaddrinfo reads as 127.0.0.1
      'localhost',
      '3c9d3b9a-1f2e-4b5c-8d7e-0a1b2c3d4e5f.local',
      'metadata.google.internal',
      '127.1',
      '0x7f000001',
      '2130706433',
      '',
      // private, loopback, link-local, carrier NAT, documentation, multicast, this-network
      '10.0.0.1',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.20',
      '127.0.0.1',
      '127.0.0.2',
      '169.254.169.254',
      '100.64.0.1',
      '192.0.2.2',
      '203.0.113.5',
      '0.0.0.0',
      '224.0.0.251',
      '255.255.255.255',
      '::',
      '::1',
      'fe80::1',
      'fe80::1%eth0',
      'fd00::2',
      'fc00::1',
      'ff02::fb',
      '::ffff:10.0.0.1',
      '::ffff:8.8.8.8',
      '64:ff9b::a00:1',
      '2001:db8::1',
      '2002:c0a8:0101::1',
    ];
    for (const address of inward) expect(isReachableAddress(address, STRICT), address).toBe(false);
    // Bound to loopback (the tests, the video suite's 127.0.0.2 browsers): loopback, and only it, is reachable too.
    for (const address of ['127.0.0.1', '127.0.0.2', '::1']) expect(isReachableAddress(address, LOOPBACK), address).toBe(true);
    for (const address of ['localhost', '10.0.0.1', '192.168.1.20', 'fe80::1']) expect(isReachableAddress(address, LOOPBACK), address).toBe(false);
  });

  it('reads candidate lines as browsers write them, and nothing else', () => {
    expect(
      parseCandidate('a=candidate:842163049 1 udp 1686052607 198.51.99.45 54400 typ srflx raddr 0.0.0.0 rport 0 generation 0 network-id 1 network-cost 10'),
    ).toEqual({
      foundation: '842163049',
      component: 1,
      transport: 'UDP',
      priority: 1686052607,
      address: '198.51.99.45',
      port: 54400,
      type: 'srflx',
    });
    expect(parseCandidate('a=candidate:1 1 tcp 1518280447 10.0.0.1 9 typ host tcptype active')).toMatchObject({ transport: 'TCP' });
    for (const bad of [
      'a=candidate:1 1 UDP 1 8.8.8.8 3478 typ',
      'a=candidate:1 1 UDP 1 8.8.8.8 3478 type host',
      'a=candidate:1 1 UDP 1 8.8.8.8 3478 typ peer',
      'a=candidate:1 1 SCTP 1 8.8.8.8 3478 typ host',
      'a=candidate:1 1 UDP 1 8.8.8.8 65536 typ host',
      'a=candidate:1 1 UDP 0 8.8.8.8 3478 typ host',
      'a=candidate:1 0 UDP 1 8.8.8.8 3478 typ host',
      'a=candidate:1 1 UDP 99999999999 8.8.8.8 3478 typ host',
      'a=candidate:1 1 UDP 1 8.8.8.8 3478 typ host generation',
      `a=candidate:${'f'.repeat(33)} 1 UDP 1 8.8.8.8 3478 typ host`,
      'a=candidate:1  1 UDP 1 8.8.8.8 3478 typ host',
      'a=candidate:1 1 UDP 1 8.8.8.8 -1 typ host',
      'a=candidate:',
      'a=mid:0',
    ]) {
      expect(parseCandidate(bad), bad).toBeNull();
    }
  });

  it('drops a browser’s mDNS and TCP candidates and keeps its public one, reduced to its fields', () => {
    const chrome = screenCandidates(CHROME_VIEWER, STRICT);
    // The same srflx candidate in both sections is one candidate of one (bundled) transport.
    expect(candidatesOf(chrome.sdp)).toEqual(['a=candidate:842163049 1 UDP 1686052607 198.51.99.45 54400 typ srflx']);
    expect(chrome).toMatchObject({ kept: 1, dropped: 4 });
    // Nothing else in the offer changes.
    const others = (sdp: string) => sdp.split('\r\n').filter((l) => !l.startsWith('a=candidate:'));
    expect(others(chrome.sdp)).toEqual(others(CHROME_VIEWER));
    expect(candidatesOf(screenCandidates(FIREFOX_VIEWER, STRICT).sdp)).toEqual(['a=candidate:1 1 UDP 1686052863 198.51.99.46 50932 typ srflx']);
  });

  it('keeps a few candidates per offer, whatever it lists', () => {
    const flood = [
      ...Array.from({ length: 400 }, (_, i) => `a=candidate:${i} 1 UDP 2122252543 10.${i >> 8}.${i & 255}.1 ${1000 + i} typ host`),
      ...Array.from({ length: 50 }, (_, i) => `a=candidate:${i} 1 UDP 2122252543 host-${i}.example.com 3478 typ host`),
      ...Array.from({ length: 30 }, (_, i) => `a=candidate:${i} 1 UDP 1686052607 198.51.99.${i + 1} ${2000 + i} typ srflx`),
      ...Array.from({ length: 5 }, (_, i) => `a=candidate:${i} 2 UDP 1686052606 198.51.98.${i + 1} ${3000 + i} typ srflx`),
    ];
    const sdp = CHROME_VIEWER.replace('a=ice-ufrag:Zk2x', `${flood.join('\r\n')}\r\na=ice-ufrag:Zk2x`);
    const screened = screenCandidates(sdp, STRICT);
    expect(screened.kept).toBe(MAX_REMOTE_CANDIDATES);
    const kept = candidatesOf(screened.sdp);
    expect(kept).toHaveLength(MAX_REMOTE_CANDIDATES);
    // The first public ones, in the offer's order: the browser's own srflx, then the flood's.
    expect(kept.map((l) => l.split(' ')[4])).toEqual(['198.51.99.45', ...Array.from({ length: MAX_REMOTE_CANDIDATES - 1 }, (_, i) => `198.51.99.${i + 1}`)]);
    // Loopback passes only under a loopback-bound SFU.
    const local = CHROME_VIEWER.replaceAll('3c9d3b9a-1f2e-4b5c-8d7e-0a1b2c3d4e5f.local', '127.0.0.2');
    expect(candidatesOf(screenCandidates(local, LOOPBACK).sdp)).toContain('a=candidate:2371584632 1 UDP 2122260223 127.0.0.2 54400 typ host');
    expect(candidatesOf(screenCandidates(local, STRICT).sdp).some((l) => l.includes('127.0.0.2'))).toBe(false);
  });
});
