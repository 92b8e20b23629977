import { holdRoom, type RoomSocket, releaseRoom } from '../../realtime/public-rooms.js';
import { rooms } from '../../realtime/rooms.js';
import { createViewerSlots, type Reservation, type ViewerSlot, type ViewerSlotLimits } from './viewer-slots.js';

/**
 * The embedded SFU's viewers as the server follows them: a slot each (viewer-slots.ts), a connect
 * timeout until the child says its peer connected, and, once subscribed, a hold on the session's
 * room for its socket. Whatever ends a viewer frees all three; `end` also has the child close the
 * peer (the child answers a leave for a peer it does not have, or not yet, with nothing).
 */
export function createViewerPeers(opts: {
  limits: ViewerSlotLimits;
  connectTimeoutMs: number;
  /** Asks the child to close a peer. */
  leave(peerId: string): void;
  /** A connected socket by id (a hold is released on it). */
  socketOf(socketId: string): RoomSocket | undefined;
}) {
  const slots = createViewerSlots(opts.limits);
  const connectTimers = new Map<string, NodeJS.Timeout>();
  /** Viewers whose subscription holds their socket in the session's room. */
  const roomHolds = new Set<string>();

  /** What a freed slot leaves behind here: its timer and its room hold. */
  function settle(slot: ViewerSlot): void {
    clearTimeout(connectTimers.get(slot.id));
    connectTimers.delete(slot.id);
    if (!roomHolds.delete(slot.id)) return;
    const socket = opts.socketOf(slot.socketId);
    if (socket) releaseRoom(socket, rooms.session(slot.sessionId));
  }
  function endFreed(slot: ViewerSlot): void {
    settle(slot);
    opts.leave(slot.id);
  }
  /** The child already ended the peer (failed, closed): free its slot. */
  function forget(peerId: string): void {
    const slot = slots.release(peerId);
    if (slot) settle(slot);
  }
  function end(peerId: string): void {
    forget(peerId);
    opts.leave(peerId);
  }

  return {
    /** Whether the viewer still holds its slot (a newer subscription, a leave or the timeout takes it). */
    has: (peerId: string): boolean => slots.get(peerId) !== undefined,
    /** The socket's viewer of a session, if any. */
    of: (socketId: string, sessionId: string): string | undefined => slots.of(socketId, sessionId)?.id,
    /** Takes a slot now (see viewer-slots.ts), ending the peers it replaces or takes back, and starts its connect timeout. */
    reserve(want: { id: string; sessionId: string; socketId: string; address: string }): Reservation {
      const taken = slots.reserve(want);
      if (taken.replaced) endFreed(taken.replaced);
      if (!taken.ok) return taken;
      if (taken.evicted) endFreed(taken.evicted);
      // A peer that has not connected in time is a script's (or lost): its slot goes back.
      const timer = setTimeout(() => {
        connectTimers.delete(want.id);
        if (slots.get(want.id)?.connected === false) end(want.id);
      }, opts.connectTimeoutMs);
      timer.unref();
      connectTimers.set(want.id, timer);
      return taken;
    },
    connected(peerId: string): void {
      if (!slots.markConnected(peerId)) return;
      clearTimeout(connectTimers.get(peerId));
      connectTimers.delete(peerId);
    },
    /** Puts the viewer's socket in the session's room; false at its room cap. */
    hold(peerId: string, socket: RoomSocket, sessionId: string): boolean {
      if (holdRoom(socket, rooms.session(sessionId), async () => null) === 'full') return false;
      roomHolds.add(peerId);
      return true;
    },
    forget,
    end,
    /** The socket is gone: its viewers end. */
    endSocket(socketId: string): void {
      for (const slot of slots.releaseSocket(socketId)) endFreed(slot);
    },
    /** The session's broadcast ended (the child ends its room's peers itself). */
    forgetSession(sessionId: string): void {
      for (const slot of slots.releaseSession(sessionId)) settle(slot);
    },
    /** The child died with every peer. */
    forgetAll(): void {
      for (const slot of slots.clear()) settle(slot);
    },
    get size(): number {
      return slots.size;
    },
    counts: () => slots.counts(),
  };
}
