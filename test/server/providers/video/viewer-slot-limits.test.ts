import type { Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { VideoSubscribeAck } from '../../../../src/domain/video.js';
import type { SfuStats } from '../../../../src/server/providers/video/sfu/protocol.js';
import { type Actor, buildActor } from '../../../support/actors.js';
import { buildSession } from '../../../support/factories.js';
import { publishSynthetic, type SyntheticViewer, until, viewerOffer, watchSynthetic } from '../../../support/rtp-peers.js';
import { startTestServer, type TestServer } from '../../../support/server.js';
import { sfuUp } from '../../../support/sfu.js';
import { connected, connectSocket } from '../../../support/sockets.js';
import { eventually } from '../../../support/wait.js';

/**
 * The embedded SFU's viewer slots through real sockets, the real SFU child and real
 * node-datachannel peers, behind a proxy (TRUST_PROXY: each socket's X-Forwarded-For is its
 * address), with small caps: 2 slots per address, 6 in all. Parallel subscriptions from one
 * socket, many sockets from one address, a flood of one show against the viewers of another, and
 * the session's room, entered only by a viewer that got its slot.
 */

const COMPANY = 'remates-cupos';
const PER_ADDRESS = 2;
const TOTAL = 6;

type Stats = SfuStats & { trackedViewers: number; slots: { total: number; sessions: Record<string, number>; addresses: Record<string, number> } };

describe('viewer slots of the embedded SFU', () => {
  let server: TestServer;
  let seller: Actor;
  /** Three live shows: `flooded` takes the flood, `other` has a real audience, `third` is one more. */
  let flooded: string;
  let other: string;
  let third: string;
  const sockets: Socket[] = [];
  /** The publishers' sockets, kept for the whole file. */
  const kept: Socket[] = [];
  const peers: { close(): void }[] = [];
  const publishers: { close(): void }[] = [];
  let hostile = '';

  beforeAll(async () => {
    server = await startTestServer({
      env: {
        VIDEO_BIND_ADDRESS: '127.0.0.1',
        TRUST_PROXY: 'true',
        VIEWERS_PER_ADDRESS: String(PER_ADDRESS),
        VIDEO_MAX_VIEWERS: String(TOTAL),
        // Long enough that no slot here expires mid-test (unconnected-slot.test.ts covers the timeout).
        VIDEO_CONNECT_TIMEOUT_SECONDS: '120',
      },
    });
    seller = await buildActor(server, { email: 'vende@cupos.mx', name: 'Cora Vendedora', roles: ['seller'], companyId: COMPANY });
    flooded = (await buildSession(server.ctx.db, { sellerId: seller.id, companyId: COMPANY, title: 'Inundada' })).id;
    other = (await buildSession(server.ctx.db, { sellerId: seller.id, companyId: COMPANY, title: 'La otra' })).id;
    third = (await buildSession(server.ctx.db, { sellerId: seller.id, companyId: COMPANY, title: 'La tercera' })).id;
    await sfuUp(server, flooded);
    for (const id of [flooded, other, third]) {
      const { ack, publisher } = await publishSynthetic(await socket({ keep: true }), id);
      expect(ack).toMatchObject({ ok: true });
      if (publisher) publishers.push(publisher);
    }
    // A script's offer: no candidates, so its peer never connects (and is never checked).
    hostile = (await viewerOffer()).replace(/^a=(candidate|end-of-candidates).*\r\n/gm, '');
  }, 180_000);
  afterEach(async () => {
    for (const p of peers.splice(0)) p.close();
    for (const s of sockets.splice(0)) s.disconnect();
    // Every slot of those sockets is freed, and the child ended their peers.
    await refreshUntil((s) => s.trackedViewers === 0 && s.viewers === 0, 'the slots of the last test to be freed');
  });
  afterAll(async () => {
    for (const p of publishers) p.close();
    for (const s of kept) s.disconnect();
    await server?.close();
  });

  async function socket(opts: { from?: string; keep?: boolean } = {}): Promise<Socket> {
    const s = connectSocket(server.url, { ...(opts.keep ? { cookie: seller.cookie } : {}), ...(opts.from ? { forwardedFor: `${opts.from}, 10.0.0.1` } : {}) });
    (opts.keep ? kept : sockets).push(s);
    await connected(s);
    return s;
  }
  let lastStats: Stats | null = null;
  const stats = async () => {
    lastStats = (await server.ctx.video.debug?.stats()) as Stats;
    return lastStats;
  };
  const refreshUntil = (check: (s: Stats) => boolean, what: string): Promise<void> =>
    eventually(async () => check(await stats()), { timeoutMs: 20_000, what: () => `${what}: ${JSON.stringify(lastStats)}` });
  const subscribe = (s: Socket, sessionId: string, sdp = hostile) =>
    s.timeout(15_000).emitWithAck('videoSubscribe', { sessionId, sdp }) as Promise<VideoSubscribeAck>;
  async function watch(s: Socket, sessionId: string): Promise<SyntheticViewer> {
    const { ack, viewer } = await watchSynthetic(s, sessionId);
    expect(ack).toMatchObject({ ok: true });
    if (!viewer) throw new Error('no viewer');
    peers.push(viewer);
    return viewer;
  }

  it('takes the slot before answering: parallel subscriptions from one socket hold one slot per show and two shows at most', async () => {
    const s = await socket({ from: '198.51.100.1' });
    const acks = await Promise.all(Array.from({ length: 6 }, () => subscribe(s, other)));
    // Each replaced the one before it: whichever answered, the socket holds one slot, the child one peer.
    expect(acks.filter((a) => a.ok).length).toBeGreaterThanOrEqual(1);
    await refreshUntil((st) => st.trackedViewers === 1 && st.viewers === 1, 'one slot and one peer');

    // Three shows at once, twice each: a socket watches two at most, counted before any answer.
    const t = await socket({ from: '198.51.100.2' });
    const many = await Promise.all([flooded, other, third, flooded, other, third].map((id) => subscribe(t, id)));
    expect(many.some((a) => !a.ok && a.error === 'too_many')).toBe(true);
    await refreshUntil((st) => st.trackedViewers === 3 && st.viewers === 3, 'two more slots and peers, no more');
    expect((await stats()).slots.addresses).toEqual({ '198.51.100.1': 1, '198.51.100.2': 2 });
  });

  it('holds one address to its share, whatever its sockets, and counts it as that many viewers', async () => {
    // The publisher's own socket is in the room already (it hears 'restart' there).
    const before = server.ctx.realtime.viewerCount(flooded);
    const crowd = [];
    for (let i = 0; i < 4; i++) crowd.push(await socket({ from: '203.0.113.5' }));
    const acks = [];
    for (const s of crowd) acks.push(await subscribe(s, flooded));
    expect(acks.map((a) => (a.ok ? 'ok' : a.error))).toEqual(['ok', 'ok', 'too_many', 'too_many']);
    // A resubscription of a socket at the full address is not refused: it gives up its own slot.
    expect(await subscribe(crowd[0] as Socket, flooded)).toMatchObject({ ok: true });
    // Another address has its own share.
    expect(await subscribe(await socket({ from: '203.0.113.6' }), flooded)).toMatchObject({ ok: true });
    const st = await stats();
    expect(st.slots.addresses).toEqual({ '203.0.113.5': PER_ADDRESS, '203.0.113.6': 1 });
    expect(st.trackedViewers).toBe(3);

    // The seller is shown pages following the show, each address at most PER_ADDRESS of them.
    for (const s of crowd) await s.timeout(5000).emitWithAck('joinSession', { sessionId: flooded });
    expect(server.ctx.realtime.viewerCount(flooded)).toBe(before + PER_ADDRESS + 1);
  });

  it('does not let one show’s flood starve another show’s viewers', async () => {
    // The flood: real peers that connect, from three addresses, fill the SFU.
    for (let i = 0; i < TOTAL; i++) await watch(await socket({ from: `192.0.2.${Math.floor(i / PER_ADDRESS)}` }), flooded);
    expect((await stats()).slots.sessions).toEqual({ [flooded]: TOTAL });
    // A buyer of the other show still gets in, and receives its video.
    const buyer = await watch(await socket({ from: '198.51.100.50' }), other);
    await until(() => buyer.keyframes > 0 && buyer.audio > 0, 'the other show’s video');
    // The flooded show gave back a slot, and may not take it again while it holds more than its share.
    await refreshUntil((st) => st.slots.sessions[flooded] === TOTAL - 1 && st.viewers === TOTAL, 'the flood to give a slot back');
    expect(await subscribe(await socket({ from: '192.0.2.77' }), flooded)).toEqual({ ok: false, error: 'too_many' });
    expect(buyer.state).toBe('connected');
  });

  it('puts a viewer in the show’s room only once it is one, within the room cap', async () => {
    const before = server.ctx.realtime.viewerCount(other);
    // Not live: refused, and not in that show's room.
    const idle = crypto.randomUUID();
    const s = await socket({ from: '198.51.100.60' });
    expect(await subscribe(s, idle)).toEqual({ ok: false, error: 'not_publishing' });
    expect(server.ctx.realtime.viewerCount(idle)).toBe(0);
    // A socket in as many rooms as a page may follow cannot enter one more by subscribing.
    const busy = await socket({ from: '198.51.100.61' });
    for (let i = 0; i < 20; i++) expect(await busy.timeout(5000).emitWithAck('joinSession', { sessionId: crypto.randomUUID() })).toMatchObject({ ok: true });
    expect(await subscribe(busy, other, await viewerOffer())).toEqual({ ok: false, error: 'too_many' });
    expect(server.ctx.realtime.viewerCount(other)).toBe(before);
    expect((await stats()).trackedViewers).toBe(0);
    // A successful subscription is followed in the room (it hears the show stop), and counted.
    const viewer = await socket({ from: '198.51.100.62' });
    await watch(viewer, other);
    expect(server.ctx.realtime.viewerCount(other)).toBe(before + 1);
  });
});
