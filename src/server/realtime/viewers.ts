import { randomUUID } from 'node:crypto';
import { VIEWER_COUNT_INTERVAL_MS } from '../../domain/live.js';
import { VIEWER_COUNT_EVENT, VIEWER_COUNTS_EVENT, type ViewerCountsMessage } from '../../domain/realtime.js';
import { rooms } from './rooms.js';
import type { RealtimeServer } from './types.js';

const SESSION_PREFIX = 'session:';

/** Sockets of one address counted when nothing says otherwise (config: VIEWERS_PER_ADDRESS). */
const DEFAULT_PER_ADDRESS = 20;

/**
 * The viewer count of each live session, across instances. A viewer is a page following the show:
 * a socket in its room `session:<id>` that is not the seller's own Live Hub (`sessionhost:<id>`),
 * and one address counts for at most `perAddress` of them, so a script opening hundreds of sockets
 * from one machine cannot show the seller a crowd (several phones behind one carrier NAT still
 * count). A socket enters the room by joinSession (capped and throttled per socket) or by a
 * successful video subscription, never by a refused one. Each instance counts its own sockets (Socket.IO's local rooms) once a tick and, with peers (the
 * Redis adapter), shares those counts with the others whenever they change and every few ticks
 * anyway; a peer silent for longer than that is forgotten (it stopped or crashed). Each instance
 * then tells its own sockets (`io.local`) the room's total, at most once a tick and only when it
 * changed, so a viewer never hears the same count from every instance.
 */
export function createViewerCounter(io: RealtimeServer, opts: { peers: boolean; intervalMs?: number; perAddress?: number }) {
  const intervalMs = opts.intervalMs ?? VIEWER_COUNT_INTERVAL_MS;
  const perAddress = opts.perAddress ?? DEFAULT_PER_ADDRESS;
  const instanceId = randomUUID();
  /** Counts shared at most this long ago are current; after that the peer is forgotten. */
  const peerTtlMs = intervalMs * 5;
  const heartbeatMs = intervalMs * 2;
  const peers = new Map<string, { counts: Map<string, number>; at: number }>();
  /**
   * A rehearsal's simulated viewers (features/rehearsal/rehearsal-driver.ts), added to what this
   * instance tells its sockets but never shared with peers: every instance's driver sets the same
   * number, so each adds it once.
   */
  const simulated = new Map<string, number>();
  /** What this instance's sockets last heard, per session. */
  const told = new Map<string, number>();
  let shared = '';
  let sharedAt = 0;

  /** This instance's viewers of one session (see above). */
  function localCount(sessionId: string): number {
    const all = io.of('/').adapter.rooms;
    const ids = all.get(rooms.session(sessionId));
    if (!ids) return 0;
    // The seller's own Live Hub tabs follow the room too; they are not viewers.
    const hosts = all.get(rooms.sessionHost(sessionId));
    const sockets = io.of('/').sockets;
    const byAddress = new Map<string, number>();
    let count = 0;
    for (const id of ids) {
      if (hosts?.has(id)) continue;
      const address = sockets.get(id)?.data.address ?? id;
      const seen = byAddress.get(address) ?? 0;
      if (seen >= perAddress) continue;
      byAddress.set(address, seen + 1);
      count++;
    }
    return count;
  }

  function localCounts(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const [room, ids] of io.of('/').adapter.rooms) {
      if (!room.startsWith(SESSION_PREFIX) || ids.size === 0) continue;
      const sessionId = room.slice(SESSION_PREFIX.length);
      counts.set(sessionId, localCount(sessionId));
    }
    return counts;
  }

  function peerTotal(sessionId: string, now: number): number {
    let total = 0;
    for (const [id, peer] of peers) {
      if (now - peer.at > peerTtlMs) {
        peers.delete(id);
        continue;
      }
      total += peer.counts.get(sessionId) ?? 0;
    }
    return total;
  }

  function onPeer(message: unknown) {
    const m = message as Partial<ViewerCountsMessage> | null;
    if (!m || typeof m.instanceId !== 'string' || m.instanceId === instanceId || typeof m.counts !== 'object' || m.counts === null) return;
    const counts = new Map<string, number>();
    for (const [id, n] of Object.entries(m.counts)) if (typeof n === 'number' && Number.isInteger(n) && n > 0) counts.set(id, n);
    peers.set(m.instanceId, { counts, at: Date.now() });
  }

  function tick() {
    const now = Date.now();
    const local = localCounts();
    if (opts.peers) {
      const snapshot = JSON.stringify(Object.fromEntries(local));
      if (snapshot !== shared || now - sharedAt >= heartbeatMs) {
        io.serverSideEmit(VIEWER_COUNTS_EVENT, { instanceId, counts: Object.fromEntries(local) } satisfies ViewerCountsMessage);
        shared = snapshot;
        sharedAt = now;
      }
    }
    for (const [sessionId, n] of local) {
      const count = n + peerTotal(sessionId, now) + (simulated.get(sessionId) ?? 0);
      if (told.get(sessionId) === count) continue;
      told.set(sessionId, count);
      io.local.to(rooms.session(sessionId)).emit(VIEWER_COUNT_EVENT, { sessionId, count });
    }
    for (const sessionId of told.keys()) if (!local.has(sessionId)) told.delete(sessionId);
  }

  /** The session's viewers here now, plus those of every other instance as last shared. */
  function total(sessionId: string): number {
    return localCount(sessionId) + peerTotal(sessionId, Date.now()) + (simulated.get(sessionId) ?? 0);
  }

  if (opts.peers) io.on(VIEWER_COUNTS_EVENT, onPeer);
  const timer = setInterval(tick, intervalMs);
  timer.unref();

  return {
    count: total,
    /**
     * Tells a socket that just joined the session's room the count now: the room hears only
     * changes, and a reload changes nothing (one page leaves, one comes), so it would hear nothing.
     * When that count is not what the room was last told (the new page came before the old one's
     * leave), the next tick tells the whole room again, so every screen ends on the same number.
     */
    greet(socket: { emit(event: typeof VIEWER_COUNT_EVENT, payload: { sessionId: string; count: number }): unknown }, sessionId: string): void {
      const count = total(sessionId);
      socket.emit(VIEWER_COUNT_EVENT, { sessionId, count });
      if (told.get(sessionId) !== count) told.delete(sessionId);
    },
    /** A rehearsal's simulated viewers of the session; null or 0 removes them. */
    simulate(sessionId: string, count: number | null): void {
      if (count) simulated.set(sessionId, count);
      else simulated.delete(sessionId);
    },
    stop() {
      clearInterval(timer);
    },
  };
}
export type ViewerCounter = ReturnType<typeof createViewerCounter>;
