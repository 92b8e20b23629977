import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createViewerSlots, type Reservation } from '../../../../src/server/providers/video/viewer-slots.js';

/**
 * The embedded SFU's viewer slots on their own: per socket, per address, the total, a socket's
 * resubscription, and the fair share between sessions once the SFU is full.
 */

let next = 0;
const want = (sessionId: string, socketId: string, address: string) => ({ id: `peer-${++next}`, sessionId, socketId, address });
const ok = (r: Reservation) => {
  if (!r.ok) throw new Error(`refused: ${r.reason}`);
  return r;
};

describe('viewer slots', () => {
  it('holds a socket to two sessions, and a resubscription replaces its slot instead of adding one', () => {
    const slots = createViewerSlots({ total: 100, perSocket: 2, perAddress: 10 });
    const first = ok(slots.reserve(want('s1', 'sock', '198.51.100.1')));
    const again = ok(slots.reserve(want('s1', 'sock', '198.51.100.1')));
    expect(again.replaced?.id).toBe(first.slot.id);
    expect(slots.get(first.slot.id)).toBeUndefined();
    expect(slots.size).toBe(1);
    ok(slots.reserve(want('s2', 'sock', '198.51.100.1')));
    expect(slots.reserve(want('s3', 'sock', '198.51.100.1'))).toMatchObject({ ok: false, reason: 'socket', replaced: null });
    expect(slots.counts()).toEqual({ total: 2, sessions: { s1: 1, s2: 1 }, addresses: { '198.51.100.1': 2 } });
  });

  it('holds one address to its share over every session and socket, and frees with the socket', () => {
    const slots = createViewerSlots({ total: 100, perSocket: 2, perAddress: 3 });
    for (let i = 0; i < 3; i++) ok(slots.reserve(want(`s${i % 2}`, `sock-${i}`, '203.0.113.9')));
    expect(slots.reserve(want('s0', 'sock-9', '203.0.113.9'))).toMatchObject({ ok: false, reason: 'address' });
    // A resubscription from the same address is not refused: it gives up its slot first.
    ok(slots.reserve(want('s0', 'sock-0', '203.0.113.9')));
    // Another address is counted apart.
    ok(slots.reserve(want('s0', 'sock-x', '203.0.113.10')));
    expect(slots.releaseSocket('sock-1').map((s) => s.socketId)).toEqual(['sock-1']);
    ok(slots.reserve(want('s0', 'sock-9', '203.0.113.9')));
    expect(slots.counts().addresses).toEqual({ '203.0.113.9': 3, '203.0.113.10': 1 });
  });

  it('lets a session below its fair share take a slot back from a flooded one, a script’s before a viewer’s', () => {
    const slots = createViewerSlots({ total: 6, perSocket: 2, perAddress: 2 });
    // The flood fills the SFU from three addresses; two of its peers connected.
    const flood = [0, 1, 2, 3, 4, 5].map((i) => ok(slots.reserve(want('flooded', `f-${i}`, `192.0.2.${Math.floor(i / 2)}`))).slot);
    for (const slot of flood.slice(0, 2)) slots.markConnected(slot.id);
    // Full: another session's viewer takes the newest slot that has not connected.
    const first = ok(slots.reserve(want('other', 'v-1', '198.51.100.7')));
    expect(first.evicted?.id).toBe(flood[5]?.id);
    const second = ok(slots.reserve(want('other', 'v-2', '198.51.100.8')));
    expect(second.evicted?.id).toBe(flood[4]?.id);
    // Two sessions: a share of 3 each. The flooded one may not grow back past it...
    expect(slots.reserve(want('flooded', 'f-9', '192.0.2.9'))).toMatchObject({ ok: false, reason: 'session' });
    // ...and the other takes its third slot from the flood's unconnected ones, then stops at its share.
    expect(ok(slots.reserve(want('other', 'v-3', '198.51.100.9'))).evicted?.id).toBe(flood[3]?.id);
    expect(slots.reserve(want('other', 'v-4', '198.51.100.10'))).toMatchObject({ ok: false, reason: 'session' });
    expect(slots.counts().sessions).toEqual({ flooded: 3, other: 3 });

    // A third session: shares of 2. With only connected peers left above it, the newest of the address holding most goes.
    slots.markConnected(flood[2]?.id as string);
    const third = ok(slots.reserve(want('third', 't-1', '198.51.100.20')));
    expect(third.evicted).toMatchObject({ sessionId: 'flooded' });
    expect(['192.0.2.0', '192.0.2.1']).toContain(third.evicted?.address);
    expect(slots.counts().sessions).toEqual({ flooded: 2, other: 3, third: 1 });
  });

  it('never exceeds a cap, and a session below its fair share always gets a slot, whatever the order', () => {
    // Mostly subscriptions, so the SFU fills and sessions compete (about one reservation in 20 takes a slot back).
    const op = fc.oneof(
      {
        weight: 4,
        arbitrary: fc.record({
          t: fc.constant('reserve' as const),
          session: fc.integer({ min: 0, max: 3 }),
          socket: fc.integer({ min: 0, max: 11 }),
          address: fc.integer({ min: 0, max: 4 }),
        }),
      },
      fc.record({ t: fc.constant('connect' as const), pick: fc.nat() }),
      fc.record({ t: fc.constant('release' as const), pick: fc.nat() }),
      fc.record({ t: fc.constant('disconnect' as const), socket: fc.integer({ min: 0, max: 11 }) }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10 }), fc.integer({ min: 1, max: 4 }), fc.array(op, { minLength: 20, maxLength: 80 }), (total, perAddress, ops) => {
        const slots = createViewerSlots({ total, perSocket: 2, perAddress });
        const ids: string[] = [];
        for (const o of ops) {
          if (o.t === 'reserve') {
            const sessionId = `s${o.session}`;
            const before = slots.counts();
            const heldBefore = before.sessions[sessionId] ?? 0;
            const watched = new Set([...Object.keys(before.sessions), sessionId]).size;
            const r = slots.reserve({ id: `p${ids.length}`, sessionId, socketId: `k${o.socket}`, address: `a${o.address}` });
            ids.push(`p${ids.length}`);
            // Only the socket's and the address's caps, or a session at its share of a full SFU, refuse.
            if (!r.ok && r.reason === 'full') throw new Error('a full SFU left a session below its share without a slot');
            if (!r.ok && r.reason === 'session') expect(heldBefore - (r.replaced ? 1 : 0)).toBeGreaterThanOrEqual(Math.floor(total / watched));
          } else if (o.t === 'connect' && ids.length) slots.markConnected(ids[o.pick % ids.length] as string);
          else if (o.t === 'release' && ids.length) slots.release(ids[o.pick % ids.length] as string);
          else if (o.t === 'disconnect') slots.releaseSocket(`k${o.socket}`);
          const c = slots.counts();
          expect(c.total).toBeLessThanOrEqual(total);
          expect(Object.values(c.sessions).reduce((a, b) => a + b, 0)).toBe(c.total);
          for (const n of Object.values(c.addresses)) expect(n).toBeLessThanOrEqual(perAddress);
          for (let k = 0; k < 12; k++) {
            const mine = [0, 1, 2, 3].filter((s) => slots.of(`k${k}`, `s${s}`)).length;
            expect(mine).toBeLessThanOrEqual(2);
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});
