/**
 * Who holds the embedded SFU's viewer slots. A slot is taken synchronously, before any `await`,
 * so parallel subscriptions cannot overshoot a cap, and it is counted three ways:
 * - per socket: a page watches one session at a time (and a preview); a socket that subscribes
 *   again to the same session gives up its previous slot first, so it never holds two;
 * - per client address: one machine, or one phone's IPv6 /64, holds at most `perAddress` slots
 *   (small, so a script cannot take a large share; big enough for a few buyers behind one
 *   carrier-grade NAT or Wi-Fi, and configurable for a venue that puts a whole audience behind one);
 * - per session, once the SFU is full: a session below its fair share (the slots divided among the
 *   sessions being watched) takes the slot of the session furthest above its own, so one show's
 *   flood, from however many addresses, cannot starve another show's viewers. The slot given up is
 *   one not connected yet if there is one (a script's), else the newest of the address holding most
 *   of that session.
 * Slots whose peer never connects are freed by the caller after a timeout (embedded.ts).
 * Pure bookkeeping: no timers, no I/O, so it is tested on its own.
 */

export interface ViewerSlotLimits {
  /** Viewers on the SFU at once. */
  total: number;
  /** Sessions one socket may watch at once. */
  perSocket: number;
  /** Slots one client address may hold over every session. */
  perAddress: number;
}

export interface ViewerSlot {
  /** The viewer's peer id in the SFU. */
  readonly id: string;
  readonly sessionId: string;
  readonly socketId: string;
  readonly address: string;
  /** Its peer reached 'connected' (ICE and DTLS done). */
  connected: boolean;
}

/** Why a slot was refused: the socket's or the address's slots are taken, or the SFU is full and the session holds its share. */
export type SlotRefusal = 'socket' | 'address' | 'session' | 'full';

export type Reservation =
  | {
      ok: true;
      slot: ViewerSlot;
      /** The socket's previous slot for this session, freed: its peer must end. */
      replaced: ViewerSlot | null;
      /** Another session's slot taken back for this one's fair share: its peer must end. */
      evicted: ViewerSlot | null;
    }
  | { ok: false; reason: SlotRefusal; replaced: ViewerSlot | null };

export type ViewerSlots = ReturnType<typeof createViewerSlots>;

export function createViewerSlots(limits: ViewerSlotLimits) {
  /** Every slot, oldest first. */
  const slots = new Map<string, ViewerSlot>();
  /** socketId → sessionId → its slot. */
  const bySocket = new Map<string, Map<string, ViewerSlot>>();
  /** sessionId → its slots, oldest first. */
  const bySession = new Map<string, Map<string, ViewerSlot>>();
  const byAddress = new Map<string, number>();

  function add(slot: ViewerSlot): void {
    slots.set(slot.id, slot);
    const mine = bySocket.get(slot.socketId) ?? new Map<string, ViewerSlot>();
    bySocket.set(slot.socketId, mine.set(slot.sessionId, slot));
    const session = bySession.get(slot.sessionId) ?? new Map<string, ViewerSlot>();
    bySession.set(slot.sessionId, session.set(slot.id, slot));
    byAddress.set(slot.address, (byAddress.get(slot.address) ?? 0) + 1);
  }

  function release(id: string): ViewerSlot | null {
    const slot = slots.get(id);
    if (!slot) return null;
    slots.delete(id);
    const mine = bySocket.get(slot.socketId);
    if (mine?.get(slot.sessionId) === slot) mine.delete(slot.sessionId);
    if (mine?.size === 0) bySocket.delete(slot.socketId);
    const session = bySession.get(slot.sessionId);
    session?.delete(id);
    if (session?.size === 0) bySession.delete(slot.sessionId);
    const n = (byAddress.get(slot.address) ?? 1) - 1;
    if (n > 0) byAddress.set(slot.address, n);
    else byAddress.delete(slot.address);
    return slot;
  }

  /** Each watched session's fair share, with `sessionId` counted among them. */
  function shareWith(sessionId: string): number {
    const sessions = bySession.size + (bySession.has(sessionId) ? 0 : 1);
    return Math.floor(limits.total / sessions);
  }

  /** The slot to take back for a session below its share: from the session furthest above its own (see above). */
  function victimFor(sessionId: string, share: number): ViewerSlot | null {
    let over: Map<string, ViewerSlot> | null = null;
    for (const [id, session] of bySession) {
      if (id !== sessionId && session.size > share && session.size > (over?.size ?? 0)) over = session;
    }
    if (!over) return null;
    const perAddress = new Map<string, ViewerSlot[]>();
    let newestUnconnected: ViewerSlot | null = null;
    for (const slot of over.values()) {
      if (!slot.connected) newestUnconnected = slot;
      const list = perAddress.get(slot.address) ?? [];
      list.push(slot);
      perAddress.set(slot.address, list);
    }
    if (newestUnconnected) return newestUnconnected;
    let biggest: ViewerSlot[] = [];
    for (const list of perAddress.values()) if (list.length > biggest.length) biggest = list;
    return biggest[biggest.length - 1] ?? null;
  }

  return {
    /** Takes a slot for `id` now, or says why not; the caller ends the peers of `replaced` and `evicted`. */
    reserve(want: { id: string; sessionId: string; socketId: string; address: string }): Reservation {
      const previous = bySocket.get(want.socketId)?.get(want.sessionId);
      const replaced = previous ? release(previous.id) : null;
      if ((bySocket.get(want.socketId)?.size ?? 0) >= limits.perSocket) return { ok: false, reason: 'socket', replaced };
      if ((byAddress.get(want.address) ?? 0) >= limits.perAddress) return { ok: false, reason: 'address', replaced };
      let evicted: ViewerSlot | null = null;
      if (slots.size >= limits.total) {
        const share = shareWith(want.sessionId);
        if ((bySession.get(want.sessionId)?.size ?? 0) >= share) return { ok: false, reason: 'session', replaced };
        // Below its share on a full SFU, some other session is above its own (the shares add up to at most the total).
        const victim = victimFor(want.sessionId, share);
        if (!victim) return { ok: false, reason: 'full', replaced };
        evicted = release(victim.id);
      }
      const slot: ViewerSlot = { id: want.id, sessionId: want.sessionId, socketId: want.socketId, address: want.address, connected: false };
      add(slot);
      return { ok: true, slot, replaced, evicted };
    },
    /** The slot's peer connected; false when the slot is gone. */
    markConnected(id: string): boolean {
      const slot = slots.get(id);
      if (slot) slot.connected = true;
      return Boolean(slot);
    },
    release,
    /** Frees every slot of a socket (it disconnected). */
    releaseSocket(socketId: string): ViewerSlot[] {
      return [...(bySocket.get(socketId)?.values() ?? [])].map((slot) => release(slot.id) ?? slot);
    },
    /** Frees every slot of a session (its broadcast ended). */
    releaseSession(sessionId: string): ViewerSlot[] {
      return [...(bySession.get(sessionId)?.values() ?? [])].map((slot) => release(slot.id) ?? slot);
    },
    /** Forgets everything (the SFU process died with every peer). */
    clear(): ViewerSlot[] {
      const all = [...slots.values()];
      slots.clear();
      bySocket.clear();
      bySession.clear();
      byAddress.clear();
      return all;
    },
    get: (id: string): ViewerSlot | undefined => slots.get(id),
    /** The socket's slot for a session, if it has one. */
    of: (socketId: string, sessionId: string): ViewerSlot | undefined => bySocket.get(socketId)?.get(sessionId),
    get size(): number {
      return slots.size;
    },
    /** Counts for tests and benches: slots per session and per address. */
    counts(): { total: number; sessions: Record<string, number>; addresses: Record<string, number> } {
      return {
        total: slots.size,
        sessions: Object.fromEntries([...bySession].map(([id, s]) => [id, s.size])),
        addresses: Object.fromEntries(byAddress),
      };
    },
  };
}
