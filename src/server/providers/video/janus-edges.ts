import { lookup } from 'node:dns/promises';
import type { JanodeHandle } from 'janode';
import StreamingPlugin from 'janode/plugins/streaming';
import type { VideoRoomHandle } from 'janode/plugins/videoroom';
import { newestPublisher } from '../../../domain/video.js';
import { createJanusLink, type JanusLink, janusErrorCode } from './janus-link.js';
import { VideoUnavailableError } from './types.js';

/**
 * Janus edges (JANUS_EDGES): the seller publishes into the show's VideoRoom on the origin
 * (JANUS_URL) as without edges; the origin forwards her newest feed's RTP (the VideoRoom's RTP
 * forwarders) to a Streaming mountpoint of the show on each edge, and viewers watch a mountpoint
 * on an edge (src/web/video/janus.ts). One origin then takes one copy per edge, and the edges take
 * the viewers: a show grows by adding edges.
 *
 * - A mountpoint has the room's number and secret (janusRoomKeys), so every instance finds it;
 *   its ports are Janus's own choice, read back with `info`. It keeps the last keyframe for a
 *   viewer who arrives (`bufferkf`), and the room asks the seller for one every 2 s.
 * - Viewers go to the least-loaded edge that answers and has room (JANUS_EDGE_MAX_VIEWERS; the
 *   least loaded when all are full). A viewer counts on her edge from the grant on: arriving (until
 *   the mountpoint's own count has her), or waiting there for the seller's first broadcast. An
 *   edge that does not answer is skipped; its viewers' pages lose their connection and ask for a
 *   grant again, which sends them to another edge.
 * - `feed` (the `edge-feed` job, every second, and each viewer's grant) keeps each live show's
 *   forwarders right: the newest publishing feed to every edge that answers, at its mountpoint's
 *   ports now; a forwarder to a port no mountpoint has (an edge restarted, a feed replaced) is
 *   stopped. Two instances doing it at once can both add one; the next pass keeps the oldest.
 */

/** Payload types the forwarders write and the mountpoints announce: the seller's own vary by browser. */
const AUDIO_PT = 111;
const VIDEO_PT = 96;
const STREAMING_ERROR = { NO_SUCH_MOUNTPOINT: 455, CANT_CREATE: 456 } as const;
const VIDEOROOM_NO_SUCH_ROOM = 426;
/**
 * How long a viewer sent to an edge counts as arriving there, until the mountpoint's own count (read
 * every second) has them. A phone on a slow network, or a loaded machine, can take several seconds
 * from the grant to its `watch`; counting a viewer twice for a while only spreads a burst the same.
 */
const CONNECTING_MS = 10_000;
/**
 * How long a viewer sent to an edge before the seller's first broadcast counts as waiting there: her
 * page waits on that edge for the show's mountpoint, however long the show takes to start. A page
 * closed meanwhile still counts until then, or until the show starts (it then counts as arriving).
 * A page that names its viewer (the page's own id, kept across its reloads) counts once: its new
 * grant takes the place of the one before, wherever that one was.
 */
const WAITING_MS = 60 * 60_000;
/** A mountpoint's viewer count read longer ago than this (its show no longer fed here) no longer counts. */
const VIEWERS_FRESH_MS = 10_000;
/** A grant trusts a mountpoint's ports read this recently (the feed reads them every second). */
const PORTS_FRESH_MS = 5000;

export interface EdgeTarget {
  url: string;
  publicUrl: string;
}

interface MountpointPorts {
  audio: number;
  video: number;
}

interface Forwarder {
  publisherId: number;
  streamId: number;
  type: string;
  host: string;
  port: number;
}

export interface JanusEdges {
  /** The edge a new viewer of the session watches, with its mountpoint ready; VideoUnavailableError when no edge answers. */
  assign(sessionId: string, keys: { room: number; secret: string }, opts: { create: boolean; viewer?: string }): Promise<{ edge: number; publicUrl: string }>;
  /** Brings the session's forwarders in line with its newest feed and the edges that answer. */
  feed(sessionId: string, keys: { room: number; secret: string }): Promise<void>;
  /** The show ended: its mountpoints go (the room's forwarders go with the room). */
  endSession(keys: { room: number; secret: string }): Promise<void>;
  /** Each edge's viewers of the sessions last fed or assigned, and whether it answered (for the metrics and tests). */
  load(): { url: string; viewers: number; up: boolean }[];
  close(): Promise<void>;
}

type StreamingHandle = JanodeHandle;
type Log = { info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void };

export function createJanusEdges(opts: {
  edges: EdgeTarget[];
  maxViewers: number;
  adminKey: string | null;
  origin: JanusLink<VideoRoomHandle>;
  log: Log;
}): JanusEdges {
  const edges = opts.edges.map((target) => ({
    ...target,
    host: new URL(target.url).hostname,
    link: createJanusLink<StreamingHandle>({ url: target.url, plugin: StreamingPlugin, log: opts.log }),
    /** Viewers per room number, as `info` last said, and when. */
    viewers: new Map<number, { count: number; at: number }>(),
    /** When this instance last sent viewers here: a viewer counts before its connection is up (a burst spreads evenly). */
    grants: [] as number[],
    /** Viewers sent here before their show's room existed, per room number: each viewer's key, and when she was sent (oldest first). */
    waiting: new Map<number, Map<string, number>>(),
    /** Each room's mountpoint ports, as `info` last said, and when: a burst of grants asks the edge once. */
    ports: new Map<number, { ports: MountpointPorts; at: number }>(),
    up: true,
  }));

  const body = async (handle: StreamingHandle, request: Record<string, unknown>) => {
    const answer = await handle.message(request);
    return (answer.plugindata?.data ?? {}) as Record<string, unknown>;
  };

  /** The mountpoint's ports and viewers, or null when the edge has none for the room. */
  async function info(edge: (typeof edges)[number], keys: { room: number; secret: string }) {
    try {
      const data = await edge.link.request('mountpoint info', (h) => body(h, { request: 'info', id: keys.room, secret: keys.secret }));
      const found = data.info as { viewers?: number; media?: { type?: string; port?: number }[] } | undefined;
      const port = (type: string) => found?.media?.find((m) => m.type === type)?.port;
      const audio = port('audio');
      const video = port('video');
      edge.viewers.set(keys.room, { count: found?.viewers ?? 0, at: Date.now() });
      const ports = typeof audio === 'number' && typeof video === 'number' ? { audio, video } : null;
      if (ports) edge.ports.set(keys.room, { ports, at: Date.now() });
      else edge.ports.delete(keys.room);
      // The show's mountpoint is here: the pages waiting for it find it at their next look and connect.
      const waited = ports ? edge.waiting.get(keys.room) : undefined;
      if (waited) {
        edge.waiting.delete(keys.room);
        const now = Date.now();
        for (const at of waited.values()) if (at >= now - WAITING_MS) edge.grants.push(now);
      }
      return ports;
    } catch (err) {
      if (janusErrorCode(err) === STREAMING_ERROR.NO_SUCH_MOUNTPOINT) {
        edge.viewers.delete(keys.room);
        edge.ports.delete(keys.room);
        return null;
      }
      throw err;
    }
  }

  async function ensureMountpoint(edge: (typeof edges)[number], keys: { room: number; secret: string }, fresh: boolean): Promise<MountpointPorts> {
    const cached = edge.ports.get(keys.room);
    if (!fresh && cached && Date.now() - cached.at < PORTS_FRESH_MS) return cached.ports;
    const found = await info(edge, keys);
    if (found) return found;
    try {
      await edge.link.request('create mountpoint', (h) =>
        body(h, {
          request: 'create',
          type: 'rtp',
          id: keys.room,
          secret: keys.secret,
          is_private: true,
          permanent: false,
          // A replaced feed (the seller reloaded) arrives with a new SSRC: take it at once.
          collision: 0,
          media: [
            { type: 'audio', mid: 'a', port: 0, pt: AUDIO_PT, codec: 'opus' },
            { type: 'video', mid: 'v', port: 0, pt: VIDEO_PT, codec: 'vp8', bufferkf: true },
          ],
          ...(opts.adminKey ? { admin_key: opts.adminKey } : {}),
        }),
      );
      opts.log.info({ edge: edge.url, room: keys.room }, 'janus edge: mountpoint created');
    } catch (err) {
      // Another instance created it first: read its ports below.
      if (janusErrorCode(err) !== STREAMING_ERROR.CANT_CREATE) throw err;
    }
    const made = await info(edge, keys);
    if (!made) throw new VideoUnavailableError(`janus edge ${edge.url}: the mountpoint for room ${keys.room} has no ports`);
    return made;
  }

  async function originRequest(what: string, request: Record<string, unknown>): Promise<Record<string, unknown>> {
    return opts.origin.request(what, async (h) => {
      const answer = await h.message(request);
      return (answer.plugindata?.data ?? {}) as Record<string, unknown>;
    });
  }

  async function forwarders(keys: { room: number; secret: string }): Promise<Forwarder[]> {
    const data = await originRequest('list forwarders', { request: 'listforwarders', room: keys.room, secret: keys.secret });
    const publishers = (data.publishers ?? []) as { publisher_id: number; forwarders?: { stream_id: number; type: string; host: string; port: number }[] }[];
    return publishers.flatMap((p) =>
      (p.forwarders ?? []).map((f) => ({ publisherId: p.publisher_id, streamId: f.stream_id, type: f.type, host: f.host, port: f.port })),
    );
  }

  async function stopForwarder(keys: { room: number; secret: string }, f: Forwarder): Promise<void> {
    try {
      await originRequest('stop forwarder', {
        request: 'stop_rtp_forward',
        room: keys.room,
        secret: keys.secret,
        publisher_id: f.publisherId,
        stream_id: f.streamId,
      });
    } catch (err) {
      // Gone with its publisher meanwhile.
      if (janusErrorCode(err) === null) throw err;
    }
  }

  const addresses = new Map<string, string>();
  async function address(host: string): Promise<string> {
    const known = addresses.get(host);
    if (known) return known;
    const { address: ip } = await lookup(host, { family: 4 });
    addresses.set(host, ip);
    return ip;
  }

  async function feed(_sessionId: string, keys: { room: number; secret: string }): Promise<void> {
    let participants: unknown;
    try {
      const data = await originRequest('list participants', { request: 'listparticipants', room: keys.room, secret: keys.secret });
      participants = data.participants;
    } catch (err) {
      if (janusErrorCode(err) === VIDEOROOM_NO_SUCH_ROOM) return;
      throw err;
    }
    const publisher = newestPublisher(participants);
    // Each edge that answers, with its mountpoint's ports now.
    const targets: { host: string; ports: MountpointPorts }[] = [];
    await Promise.all(
      edges.map(async (edge) => {
        try {
          const ports = await ensureMountpoint(edge, keys, true);
          edge.up = true;
          targets.push({ host: await address(edge.host), ports });
        } catch (err) {
          edge.up = false;
          if (!(err instanceof VideoUnavailableError)) opts.log.warn({ edge: edge.url, err: String(err) }, 'janus edge: mountpoint refused');
        }
      }),
    );
    const existing = await forwarders(keys);
    const wanted = (f: Forwarder) =>
      f.publisherId === publisher && targets.some((t) => t.host === f.host && t.ports[f.type === 'video' ? 'video' : 'audio'] === f.port);
    // Keep one forwarder per target and kind (the oldest, should two instances have added one each); stop the rest.
    const kept = new Set<string>();
    for (const f of [...existing].sort((a, b) => a.streamId - b.streamId)) {
      const key = `${f.host}:${f.port}`;
      if (wanted(f) && !kept.has(key)) kept.add(key);
      else await stopForwarder(keys, f);
    }
    if (publisher === null) return;
    for (const t of targets) {
      if (kept.has(`${t.host}:${t.ports.video}`) && kept.has(`${t.host}:${t.ports.audio}`)) continue;
      // Half a pair (one of them stopped by hand): start both again.
      for (const f of existing)
        if (f.host === t.host && (f.port === t.ports.video || f.port === t.ports.audio) && kept.has(`${f.host}:${f.port}`)) await stopForwarder(keys, f);
      try {
        await originRequest('forward to an edge', {
          request: 'rtp_forward',
          room: keys.room,
          secret: keys.secret,
          publisher_id: publisher,
          host: t.host,
          audio_port: t.ports.audio,
          audio_pt: AUDIO_PT,
          video_port: t.ports.video,
          video_pt: VIDEO_PT,
          ...(opts.adminKey ? { admin_key: opts.adminKey } : {}),
        });
      } catch (err) {
        // The feed left meanwhile: the next pass forwards the newest.
        if (janusErrorCode(err) === null) throw err;
        opts.log.warn({ room: keys.room, host: t.host, err: String(err) }, 'janus edge: forwarder refused');
      }
    }
  }

  /**
   * What an edge's mountpoints said of their viewers lately. The feed reads a live show's every
   * second; a show that ended on another instance is read no more, and its count expires here.
   */
  function watching(edge: (typeof edges)[number]): number {
    const since = Date.now() - VIEWERS_FRESH_MS;
    let total = 0;
    for (const [room, { count, at }] of edge.viewers) {
      if (at < since) edge.viewers.delete(room);
      else total += count;
    }
    return total;
  }

  /** Viewers sent to an edge before their show's first broadcast, still waiting there for it. */
  function waitingAt(edge: (typeof edges)[number]): number {
    const since = Date.now() - WAITING_MS;
    let total = 0;
    for (const [room, viewers] of edge.waiting) {
      for (const [key, at] of viewers) {
        if (at >= since) break;
        viewers.delete(key);
      }
      if (viewers.size === 0) edge.waiting.delete(room);
      total += viewers.size;
    }
    return total;
  }

  /**
   * An edge's viewers: what its mountpoints said lately, the viewers sent there in the last few
   * seconds, still connecting, and those waiting there for their show to start.
   */
  function viewersOf(edge: (typeof edges)[number]): number {
    const since = Date.now() - CONNECTING_MS;
    while (edge.grants.length > 0 && (edge.grants[0] as number) < since) edge.grants.shift();
    return watching(edge) + edge.grants.length + waitingAt(edge);
  }

  /** Keys for the waiting viewers whose pages name none: each grant is a viewer of its own. */
  let unnamed = 0;

  /**
   * Counts a viewer sent to the edge: as arriving, or, before the seller's first broadcast, as
   * waiting there for the show's mountpoint under her key (her page asks the edge, not the server,
   * until it comes). Answers how to take it back, should the edge fail her.
   */
  function arriving(edge: (typeof edges)[number], room: number, opts: { create: boolean; key: string }): () => void {
    const at = Date.now();
    if (opts.create) {
      edge.grants.push(at);
      return () => {
        const i = edge.grants.lastIndexOf(at);
        if (i >= 0) edge.grants.splice(i, 1);
      };
    }
    const viewers = edge.waiting.get(room) ?? new Map<string, number>();
    viewers.set(opts.key, at);
    edge.waiting.set(room, viewers);
    return () => {
      if (viewers.get(opts.key) === at) viewers.delete(opts.key);
    };
  }

  /** Whether the edge answered its last request (its connection drops at once when it dies). */
  const answers = (edge: (typeof edges)[number]) => edge.up && edge.link.downSince() === null;

  /** One feed at a time per show on this instance: grants arriving meanwhile ask for one more after it. */
  const feeding = new Map<number, { again: boolean; done: Promise<void> }>();
  function feedSoon(sessionId: string, keys: { room: number; secret: string }): Promise<void> {
    const running = feeding.get(keys.room);
    if (running) {
      running.again = true;
      return running.done;
    }
    const entry = { again: false, done: Promise.resolve() };
    entry.done = (async () => {
      try {
        do {
          entry.again = false;
          await feed(sessionId, keys);
        } while (entry.again);
      } finally {
        feeding.delete(keys.room);
      }
    })();
    feeding.set(keys.room, entry);
    return entry.done;
  }

  return {
    async assign(sessionId, keys, { create, viewer }) {
      // A page that waited before (it reloaded) now waits wherever this grant sends it.
      const key = viewer ?? `unnamed-${++unnamed}`;
      if (!create && viewer) for (const edge of edges) edge.waiting.get(keys.room)?.delete(viewer);
      const order = edges
        .map((edge, index) => ({ edge, index, viewers: viewersOf(edge) }))
        .filter((e) => answers(e.edge))
        .sort((a, b) => Number(a.viewers >= opts.maxViewers) - Number(b.viewers >= opts.maxViewers) || a.viewers - b.viewers || a.index - b.index);
      // Edges marked down are tried last: one may be back.
      for (const e of edges.map((edge, index) => ({ edge, index })))
        if (!order.some((o) => o.index === e.index)) order.push({ ...e, viewers: Number.POSITIVE_INFINITY });
      for (const { edge, index } of order) {
        // Counted here before the edge is asked, so that viewers asking meanwhile spread from it.
        const cancel = arriving(edge, keys.room, { create, key });
        try {
          // A mountpoint read recently on an edge that answers is trusted; any other edge is asked.
          if (create) await ensureMountpoint(edge, keys, !answers(edge));
          else await edge.link.request('ping', (h) => body(h, { request: 'list' }));
          edge.up = true;
          // The forwarders to this edge may not exist yet (its first viewer, or it came back): do not wait for the next pass.
          if (create) void feedSoon(sessionId, keys).catch(() => {});
          return { edge: index, publicUrl: edge.publicUrl };
        } catch (err) {
          cancel();
          edge.up = false;
          if (!(err instanceof VideoUnavailableError)) throw err;
        }
      }
      throw new VideoUnavailableError('janus: no edge answers');
    },
    feed: feedSoon,
    async endSession(keys) {
      // A feed under way on this instance could make a mountpoint again after the destroy below.
      await feeding.get(keys.room)?.done.catch(() => {});
      await Promise.all(
        edges.map(async (edge) => {
          edge.viewers.delete(keys.room);
          edge.ports.delete(keys.room);
          edge.waiting.delete(keys.room);
          try {
            await edge.link.request('destroy mountpoint', (h) => body(h, { request: 'destroy', id: keys.room, secret: keys.secret }));
          } catch {
            // Not there, or the edge is down (its mountpoints went with it).
          }
        }),
      );
    },
    // A dead edge's viewers are on their way to another.
    load: () => edges.map((e) => ({ url: e.url, viewers: e.up ? watching(e) : 0, up: e.up })),
    async close() {
      await Promise.all(edges.map((e) => e.link.close()));
    },
  };
}
