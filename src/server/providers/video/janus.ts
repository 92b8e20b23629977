import { createHmac } from 'node:crypto';
import path from 'node:path';
import VideoRoomPlugin, { type VideoRoomHandle } from 'janode/plugins/videoroom';
import type { VideoGrant, VideoRole } from '../../../domain/video.js';
import { createJanusEdges } from './janus-edges.js';
import { createJanusLink, janusErrorCode } from './janus-link.js';
import { type RoomRecording, type VideoProvider, type VideoProviderDeps, VideoUnavailableError } from './types.js';

/**
 * VIDEO_PROVIDER=janus (VIDEO.md): one Janus VideoRoom per live session, reached through
 * janode over JANUS_URL. Browsers talk to Janus themselves (janus.js, src/web/video/janus.ts); the
 * server only creates and destroys rooms and hands out what a browser needs to join one.
 *
 * Several server instances may share one Janus, so nothing about a room is stored: its number, its
 * secret and its publish token are HMACs of the session id keyed by SESSION_SECRET, the same on
 * every instance, and creating a room that already exists counts as success.
 *
 * Who may publish: the room's `allowed` list holds only the publish token, which only editors get
 * (the route checks `canEditSession`). Janus 1.1.2 checks `allowed` on a publisher's join and not on
 * a subscriber's (verified against the real Janus with a live publisher in a network namespace; a
 * subscription needs media, so the control-plane suite cannot show it), so viewers subscribe with
 * the room number alone and never hold a token that would let them publish.
 *
 * Recording: every room is created with its own `rec_dir` (JANUS_REC_DIR/<session id>) and
 * recording off; the recorder job turns it on (`enable_recording`) for a show that is live with
 * *Grabar el show*, and Janus then writes each publisher's audio and video as they come (`.mjr`),
 * new files for each join, which the replays job converts with janus-pp-rec.
 *
 * Edges (JANUS_EDGES, janus-edges.ts): viewers are sent to a Streaming mountpoint of the show on
 * an edge Janus, which the origin's RTP forwarders feed; the seller's side does not change.
 */

/** A little above what the seller's camera sends (~0.8 Mbps at 640x480): the room's REMB cap. */
export const JANUS_ROOM_BITRATE = 1_500_000;
/** VIDEO.md: Janus 1.1.2 retries a keyframe request only for remote publishers, so viewers joining in a burst wait for the periodic one. */
export const JANUS_FIR_FREQ_SECONDS = 2;
/** A reconnecting seller's new feed may overlap its old one for a moment; viewers watch the newest. */
export const JANUS_ROOM_PUBLISHERS = 2;
const VIDEOROOM_ERROR = { NO_SUCH_ROOM: 426, ROOM_EXISTS: 427 } as const;

export interface JanusRoomKeys {
  /** A positive integer below 2^48 (Janus room ids are 64-bit; JSON keeps integers exact below 2^53). */
  room: number;
  /** Manages the room (destroy, kick): only servers know it. */
  secret: string;
  /** The room's only `allowed` token: joins as a publisher. */
  token: string;
}

/** The session's room number, secret and publish token: the same on every server sharing SESSION_SECRET. */
export function janusRoomKeys(sessionSecret: string, sessionId: string): JanusRoomKeys {
  const mac = (purpose: string) => createHmac('sha256', sessionSecret).update(`janus:${purpose}:${sessionId}`).digest();
  const room = mac('room').readUIntBE(0, 6) + 1;
  return { room, secret: mac('secret').toString('base64url'), token: mac('publish').toString('base64url') };
}

export { janusErrorCode };

export async function createJanusVideo(deps: VideoProviderDeps): Promise<VideoProvider> {
  const janus = deps.config.video.janus;
  if (!janus) throw new Error('VIDEO_PROVIDER=janus needs JANUS_URL');
  const { url, publicUrl, adminKey } = janus;
  const { log } = deps;
  const origin = createJanusLink<VideoRoomHandle>({ url, plugin: VideoRoomPlugin, log });
  const { request } = origin;
  const edges = janus.edges.length > 0 ? createJanusEdges({ edges: janus.edges, maxViewers: janus.edgeMaxViewers, adminKey, origin, log }) : null;

  /** Concurrent grants of one session share one create request. */
  const creating = new Map<number, Promise<void>>();

  function ensureRoom(sessionId: string, keys: JanusRoomKeys): Promise<void> {
    const pending = creating.get(keys.room);
    if (pending) return pending;
    const work = request('create room', async (handle) => {
      try {
        // A raw request: janode's create() drops `allowed`, and the ACL must exist from the room's first instant.
        await handle.message({
          request: 'create',
          room: keys.room,
          description: `martillo ${sessionId}`,
          permanent: false,
          is_private: true,
          secret: keys.secret,
          allowed: [keys.token],
          publishers: JANUS_ROOM_PUBLISHERS,
          bitrate: JANUS_ROOM_BITRATE,
          bitrate_cap: true,
          fir_freq: JANUS_FIR_FREQ_SECONDS,
          videocodec: 'vp8',
          audiocodec: 'opus',
          record: false,
          rec_dir: path.join(deps.config.replays.janusRecDir, sessionId),
          ...(adminKey ? { admin_key: adminKey } : {}),
        });
        log.info({ sessionId, room: keys.room }, 'janus: room created');
      } catch (err) {
        // Another grant or another server created it first: same number, secret and token.
        if (janusErrorCode(err) === VIDEOROOM_ERROR.ROOM_EXISTS) return;
        throw err;
      }
    })
      .catch((err: unknown) => {
        if (err instanceof VideoUnavailableError) throw err;
        log.error({ sessionId, room: keys.room, err: err instanceof Error ? err.message : String(err) }, 'janus: room creation refused');
        throw new VideoUnavailableError(`janus: room creation refused: ${err instanceof Error ? err.message : String(err)}`);
      })
      .finally(() => creating.delete(keys.room));
    creating.set(keys.room, work);
    return work;
  }

  const roomRecording: RoomRecording = {
    dir: deps.config.replays.janusRecDir,
    async set(sessionId, on) {
      const keys = janusRoomKeys(deps.config.sessionSecret, sessionId);
      await creating.get(keys.room)?.catch(() => {});
      try {
        await request('enable recording', (handle) => handle.message({ request: 'enable_recording', room: keys.room, secret: keys.secret, record: on }));
        const { participants } = await request('list participants', (handle) => handle.listParticipants({ room: keys.room, secret: keys.secret }));
        return { room: true, publishers: participants.length };
      } catch (err) {
        if (janusErrorCode(err) === VIDEOROOM_ERROR.NO_SUCH_ROOM) return { room: false, publishers: 0 };
        if (err instanceof VideoUnavailableError) throw err;
        throw new VideoUnavailableError(`janus: recording refused: ${err instanceof Error ? err.message : String(err)}`);
      }
    },
  };

  return {
    name: 'janus',
    roomRecording,
    cspConnectSrc: [...new Set([publicUrl, ...janus.edges.map((e) => e.publicUrl)].map((u) => new URL(u).origin))],

    async grant(sessionId: string, role: VideoRole, opts: { viewer?: string } = {}): Promise<VideoGrant> {
      const keys = janusRoomKeys(deps.config.sessionSecret, sessionId);
      const base = { provider: 'janus' as const, role, iceServers: deps.config.video.iceServers, url: publicUrl, room: keys.room };
      if (role === 'publisher') {
        await ensureRoom(sessionId, keys);
        return { ...base, token: keys.token };
      }
      // Viewers do not create rooms (a viewer of an ended session would revive its room); this
      // round trip only proves Janus answers, so the page says "unavailable" rather than waiting forever.
      const { exists } = await request('exists', (handle) => handle.exists({ room: keys.room }));
      if (!edges) return base;
      // Through an edge: the least loaded that answers, its mountpoint ready (fed once the seller
      // publishes). Before the seller's first broadcast (no room) no mountpoint is made: the page
      // finds none and asks again, as a viewer of the room polls until someone publishes.
      const { edge, publicUrl: edgeUrl } = await edges.assign(sessionId, keys, { create: exists, ...(opts.viewer ? { viewer: opts.viewer } : {}) });
      return { ...base, url: edgeUrl, stream: { id: keys.room, edge } };
    },

    edges: edges
      ? {
          feed: (sessionId: string) => edges.feed(sessionId, janusRoomKeys(deps.config.sessionSecret, sessionId)),
          load: () => edges.load(),
        }
      : undefined,

    async endSession(sessionId: string): Promise<void> {
      const keys = janusRoomKeys(deps.config.sessionSecret, sessionId);
      await creating.get(keys.room)?.catch(() => {});
      try {
        await request('destroy room', (handle) => handle.destroy({ room: keys.room, secret: keys.secret }));
        log.info({ sessionId, room: keys.room }, 'janus: room destroyed');
      } catch (err) {
        if (janusErrorCode(err) !== VIDEOROOM_ERROR.NO_SUCH_ROOM) {
          if (err instanceof VideoUnavailableError) throw err;
          throw new VideoUnavailableError(`janus: room destruction refused: ${err instanceof Error ? err.message : String(err)}`);
        }
      }
      // After the room: a feed or a grant that finds no room makes no mountpoint again.
      await edges?.endSession(keys);
    },

    /**
     * The room's participants are its publishers only (a viewer subscribes without joining as
     * one), and the seller's page is the one holding the token: anyone in the room is her page,
     * whether or not its media flows yet. Janus drops a participant when its WebSocket closes.
     */
    async hasPublisher(sessionId: string): Promise<boolean | null> {
      const keys = janusRoomKeys(deps.config.sessionSecret, sessionId);
      try {
        const { participants } = await request('list participants', (handle) => handle.listParticipants({ room: keys.room, secret: keys.secret }));
        return participants.length > 0;
      } catch (err) {
        if (janusErrorCode(err) === VIDEOROOM_ERROR.NO_SUCH_ROOM) return false;
        // Janus down or refusing: nobody can tell, so nothing is stopped on its word.
        return null;
      }
    },

    async close(): Promise<void> {
      await edges?.close();
      await origin.close();
    },
  };
}
