import { eq } from 'drizzle-orm';
import type { Socket } from 'socket.io';
import { isUuid } from '../../domain/ids.js';
import { PUBLIC_ROOMS, type PublicRoomKind, type RoomAck } from '../../domain/realtime.js';
import type { Db } from '../db/connect.js';
import { auctions, liveSessions } from '../db/schema.js';
import { rooms } from './rooms.js';

/** A viewer may watch a handful of public rooms at once; more is a scraper. */
export const MAX_PUBLIC_ROOMS = 20;
/** Joins per socket in a window: a page joins a room or two when it opens and one per lot; a loop of joins is a script. */
export const JOIN_LIMIT = { count: 20, windowMs: 10_000 };

/**
 * The public rooms (`auction:<id>`, `session:<id>`) one socket is in. Several parts of one page
 * may follow the same room over the page's one socket (the Live Hub and its edit window, a live
 * page and its video), so each join is a hold and the socket leaves only when the last hold goes.
 * `version` is the record's version read when the socket entered: every change after it has
 * reached the socket since, so a later join answers it without reading the database again.
 */
export interface PublicRoomState {
  held: Map<string, { holders: number; version: Promise<number | null> }>;
  /** When the socket's recent joins came (a sliding window of JOIN_LIMIT). */
  joins: number[];
}

export const newPublicRoomState = (): PublicRoomState => ({ held: new Map(), joins: [] });

/** What holding a room needs of a socket (a Socket.IO socket; a test's stand-in). */
export interface RoomSocket {
  data: { publicRooms: PublicRoomState };
  join(room: string | string[]): Promise<void> | void;
  leave(room: string): Promise<void> | void;
}

/**
 * Puts the socket in a public room, or adds a hold when it is in it already. 'full' when it is
 * in MAX_PUBLIC_ROOMS rooms already. The place is taken at once, before any read, so parallel
 * joins from one socket cannot overshoot the cap.
 */
export function holdRoom(socket: RoomSocket, room: string, read: () => Promise<number | null>): { version: Promise<number | null> } | 'full' {
  const state = socket.data.publicRooms;
  const held = state.held.get(room);
  if (held) {
    held.holders++;
    return held;
  }
  if (state.held.size >= MAX_PUBLIC_ROOMS) return 'full';
  void socket.join(room);
  // Read after joining: a change committed before the read is in `version`, one after it reaches the room.
  const version = read().catch(() => null);
  const entry = { holders: 1, version };
  state.held.set(room, entry);
  return entry;
}

/** Drops one hold; the last one leaves the room (and a session's host room with it). */
export function releaseRoom(socket: RoomSocket, room: string): void {
  const state = socket.data.publicRooms;
  const held = state.held.get(room);
  if (!held) return;
  held.holders--;
  if (held.holders > 0) return;
  state.held.delete(room);
  void socket.leave(room);
  if (room.startsWith('session:')) void socket.leave(rooms.sessionHost(room.slice('session:'.length)));
}

/** Whether the socket may open a room now: JOIN_LIMIT joins in a sliding window. */
function allowJoin(state: PublicRoomState, now = Date.now()): boolean {
  state.joins = state.joins.filter((at) => now - at < JOIN_LIMIT.windowMs);
  if (state.joins.length >= JOIN_LIMIT.count) return false;
  state.joins.push(now);
  return true;
}

/**
 * joinAuction / leaveAuction / joinSession / leaveSession on one socket. Public rooms admit
 * anyone, to receive only: nothing a viewer sends is relayed. `onSessionJoin` runs once the
 * socket is in a session's room (the viewer count tells it the count at once).
 */
export function handlePublicRooms(socket: Socket, opts: { db: Db; onSessionJoin(sessionId: string): void }): void {
  for (const kind of ['auction', 'session'] as const) handleKind(socket as Socket & RoomSocket, kind, opts);
}

function handleKind(socket: Socket & RoomSocket, kind: PublicRoomKind, opts: { db: Db; onSessionJoin(sessionId: string): void }): void {
  const { join, leave, key } = PUBLIC_ROOMS[kind];
  const room = kind === 'auction' ? rooms.auction : rooms.session;
  // Payloads come from anyone: typed as the client should send them, checked as unknown.
  const idOf = (payload: unknown) => (payload as Record<string, unknown> | null)?.[key];
  socket.on(join, (payload: unknown, ack?: (answer: RoomAck) => void) => {
    const raw = idOf(payload);
    const reply = typeof ack === 'function' ? ack : () => {};
    if (!isUuid(raw)) return reply({ ok: false, error: 'invalid_id' });
    if (!allowJoin(socket.data.publicRooms)) return reply({ ok: false, error: 'rate_limited' });
    const id = raw.toLowerCase();
    const held = holdRoom(socket, room(id), () => roomVersion(opts.db, kind, id));
    if (held === 'full') return reply({ ok: false, error: 'too_many_rooms' });
    if (kind === 'session') {
      // The Live Hub says it is the seller's screen, so the viewer count leaves it out (claiming it only uncounts oneself).
      if ((payload as { host?: unknown }).host === true) void socket.join(rooms.sessionHost(id));
      opts.onSessionJoin(id);
    }
    void held.version.then((version) => reply({ ok: true, version }));
  });
  socket.on(leave, (payload: unknown, ack?: (answer: RoomAck) => void) => {
    const id = idOf(payload);
    if (isUuid(id)) releaseRoom(socket, room(id.toLowerCase()));
    if (typeof ack === 'function') ack({ ok: true });
  });
}

/** The version of a public room's record (one primary-key read), null when there is none. */
async function roomVersion(db: Db, kind: PublicRoomKind, id: string): Promise<number | null> {
  const table = kind === 'auction' ? auctions : liveSessions;
  const [row] = await db.select({ version: table.version }).from(table).where(eq(table.id, id)).limit(1);
  return row?.version ?? null;
}
