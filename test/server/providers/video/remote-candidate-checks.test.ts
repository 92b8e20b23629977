import { randomUUID } from 'node:crypto';
import dgram from 'node:dgram';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { candidatePolicy, MAX_REMOTE_CANDIDATES, screenCandidates } from '../../../../src/server/providers/video/sfu/remote-candidates.js';
import { offerOf, publishSynthetic, recvOnlyPeer, until, VIEWER_PTS, watchSynthetic } from '../../../support/rtp-peers.js';
import { type DirectSfu, directSignalling, startDirectSfu } from './direct-sfu.js';

/**
 * Where the SFU sends connectivity checks for an anonymous offer, seen from UDP sockets on
 * 127.0.0.1 that count the STUN requests reaching them (the SFU is bound to loopback here, the one
 * case where loopback candidates are kept): never to a host name, never past the first few
 * candidates. And a viewer whose every candidate is dropped (a phone on the server's LAN offers
 * only mDNS names and private addresses) still connects, through the SFU's own candidate.
 */

interface Probe {
  port: number;
  /** STUN Binding requests received (RFC 5389: type 0x0001, magic cookie 0x2112A442). */
  checks: number;
  close(): void;
}

async function probe(): Promise<Probe> {
  const socket = dgram.createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const p: Probe = { port: socket.address().port, checks: 0, close: () => socket.close() };
  socket.on('message', (m) => {
    if (m.length >= 20 && m.readUInt16BE(0) === 0x0001 && m.readUInt32BE(4) === 0x2112a442) p.checks++;
  });
  return p;
}

describe('the SFU’s checks towards an offer’s candidates', () => {
  let direct: DirectSfu;
  const closing: { close(): void }[] = [];

  beforeAll(async () => {
    direct = await startDirectSfu({ bindAddress: '127.0.0.1' });
  }, 60_000);
  afterAll(async () => {
    for (const c of closing.splice(0)) c.close();
    await direct?.sfu.close();
  });

  it('go to no host name, and to no more than the first few candidates', async () => {
    const named = await probe();
    const listed = await Promise.all(Array.from({ length: MAX_REMOTE_CANDIDATES + 4 }, probe));
    closing.push(named, ...listed);
    // A seller's offer (the worker takes it as it is: this goes past the server's own check).
    const { pc } = recvOnlyPeer('candidates-offer', VIEWER_PTS);
    const offer = (await offerOf(pc)).replaceAll('a=recvonly', 'a=sendonly');
    pc.close();
    const candidates = [
      // "localhost" is resolved to 127.0.0.1, so only the name keeps the SFU from checking it; it comes first, with the top priority.
      `a=candidate:99 1 UDP 2130706431 localhost ${named.port} typ host`,
      ...listed.map((p, i) => `a=candidate:${i + 1} 1 UDP ${2122252543 - i} 127.0.0.1 ${p.port} typ host`),
    ];
    const hostile = offer.replace(/^a=candidate:.*\r\n/gm, '').replace('a=end-of-candidates', `${candidates.join('\r\n')}\r\na=end-of-candidates`);
    await direct.sfu.request({ t: 'publish', room: randomUUID(), pubId: randomUUID(), sdp: hostile });

    const kept = listed.slice(0, MAX_REMOTE_CANDIDATES);
    // Several rounds of checks (each unanswered one is sent again) have gone to every kept candidate…
    await until(() => kept.every((p) => p.checks >= 4), 'checks to the kept candidates');
    // …and in all that time none to the others.
    expect(named.checks).toBe(0);
    expect(listed.slice(MAX_REMOTE_CANDIDATES).map((p) => p.checks)).toEqual([0, 0, 0, 0]);
  }, 60_000);

  it('a viewer whose candidates are all dropped still connects, through the SFU’s own', async () => {
    const room = randomUUID();
    const signalling = directSignalling(direct.sfu, room);
    const { publisher } = await publishSynthetic(signalling, room);
    if (!publisher) throw new Error('no publisher');
    closing.push(publisher);
    // As Chrome shows a LAN host to a page without camera permission: an mDNS name instead of its address.
    const mdns = `${randomUUID()}.local`;
    const asOnAnotherLan = (sdp: string) => {
      const renamed = sdp.replace(/^(a=candidate:\S+ \d+ \S+ \d+ )127\.0\.0\.1 /gm, `$1${mdns} `);
      expect(renamed).toContain(mdns);
      // Nothing is left for the SFU to check: it learns the viewer's address from the viewer's own checks.
      expect(screenCandidates(renamed, candidatePolicy('127.0.0.1')).kept).toBe(0);
      return renamed;
    };
    const { ack, viewer } = await watchSynthetic(signalling, room, { mapOffer: asOnAnotherLan });
    expect(ack).toMatchObject({ ok: true });
    if (!viewer) throw new Error('no viewer');
    closing.push(viewer);
    await until(() => viewer.keyframes > 0 && viewer.audio > 0, 'media to the viewer');
    expect(viewer.state).toBe('connected');
  }, 60_000);
});
