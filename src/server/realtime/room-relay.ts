import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { RealtimeServer } from './types.js';

/**
 * Hands a room's changes to the instances that hold its sockets, so each one can decide for its
 * own sockets what to send and when (the bid broadcaster's windows, realtime/bid-broadcaster.ts):
 * with several instances every viewer then hears no more events than with one, whichever instance
 * committed each change. The adapter's room emits cannot do this: they carry an event already
 * decided on the instance that emitted it.
 *
 * Alone, `publish` calls the handler at once. With Redis, it calls this instance's handler at once
 * when it holds the room's sockets, and publishes the message with Redis 7's sharded pub/sub on
 * the room's own channel, which an instance subscribes to while it holds sockets in that room (as
 * the sharded adapter does for its room emits): a show's changes reach only the instances that
 * hold its viewers.
 */
export interface RoomRelay {
  /** Whether a message goes to other instances (Redis), so that fewer, larger messages are cheaper. */
  readonly crossesInstances: boolean;
  /** To every instance holding sockets in `room` whose handler takes rooms starting with its prefix. */
  publish(room: string, message: unknown): void;
  /**
   * The handler of a prefix's rooms (e.g. `auction:`): it gets the room and the message. A prefix
   * has one handler; a later one takes it over until it unsubscribes (the returned function).
   */
  subscribe(prefix: string, handler: (room: string, message: unknown) => void): () => void;
  close(): Promise<void>;
}

type Handler = (room: string, message: unknown) => void;

/** Each prefix's handlers, the newest last: the one that handles its rooms. */
function createHandlers() {
  const byPrefix = new Map<string, Handler[]>();
  return {
    for(room: string): Handler | undefined {
      for (const [prefix, list] of byPrefix) if (room.startsWith(prefix)) return list.at(-1);
      return undefined;
    },
    add(prefix: string, handler: Handler): () => void {
      const list = byPrefix.get(prefix) ?? [];
      list.push(handler);
      byPrefix.set(prefix, list);
      return () => {
        const at = list.indexOf(handler);
        if (at >= 0) list.splice(at, 1);
        if (list.length === 0) byPrefix.delete(prefix);
      };
    },
    clear: () => byPrefix.clear(),
  };
}

/** One instance: the message goes straight to the handler. */
export function createLocalRelay(): RoomRelay {
  const handlers = createHandlers();
  return {
    crossesInstances: false,
    publish(room, message) {
      handlers.for(room)?.(room, message);
    },
    subscribe: (prefix, handler) => handlers.add(prefix, handler),
    async close() {},
  };
}

const CHANNEL_PREFIX = 'martillo#relay#';

/**
 * Several instances. `pub` publishes; `sub` is a connection of its own (in subscriber mode).
 * A message is `{ from, message }`, JSON: an instance skips its own, which it handled at once.
 */
export function createRedisRelay(io: RealtimeServer, pub: Redis, sub: Redis, log: (err: unknown) => void): RoomRelay {
  const handlers = createHandlers();
  const self = randomUUID();
  const adapter = io.of('/').adapter;
  const channel = (room: string) => `${CHANNEL_PREFIX}${room}`;

  const follows = (room: string) => handlers.for(room) !== undefined;
  adapter.on('create-room', (room: string) => {
    if (follows(room)) sub.ssubscribe(channel(room)).catch(log);
  });
  adapter.on('delete-room', (room: string) => {
    if (follows(room)) sub.sunsubscribe(channel(room)).catch(log);
  });

  sub.on('smessage', (name: string, raw: string) => {
    if (!name.startsWith(CHANNEL_PREFIX)) return;
    const room = name.slice(CHANNEL_PREFIX.length);
    let parsed: { from?: unknown; message?: unknown };
    try {
      parsed = JSON.parse(raw) as typeof parsed;
    } catch (err) {
      return log(err);
    }
    if (parsed.from === self) return;
    // A message that crossed an unsubscribe finds no sockets left here, and is dropped.
    if (!adapter.rooms.has(room)) return;
    handlers.for(room)?.(room, parsed.message);
  });

  return {
    crossesInstances: true,
    publish(room, message) {
      if (adapter.rooms.has(room)) handlers.for(room)?.(room, message);
      pub.spublish(channel(room), JSON.stringify({ from: self, message })).catch(log);
    },
    subscribe(prefix, handler) {
      for (const room of adapter.rooms.keys()) if (room.startsWith(prefix) && !follows(room)) sub.ssubscribe(channel(room)).catch(log);
      return handlers.add(prefix, handler);
    },
    async close() {
      handlers.clear();
    },
  };
}
