import { formatClock } from './live-public.js';

/**
 * Live video, shared by the server and the browser (VIDEO.md has the measurements behind the providers): the providers, what a
 * browser is granted to publish or watch, the embedded SFU's signalling over Socket.IO, and the
 * SPEC §9 constants and readouts of the transmission panel.
 */

/** `VIDEO_PROVIDER`: the embedded SFU (default), a Janus VideoRoom, or Agora's cloud (SPEC §7). */
export const VIDEO_PROVIDERS = ['embedded', 'janus', 'agora'] as const;
export type VideoProviderName = (typeof VIDEO_PROVIDERS)[number];

/** An RTCIceServer as the browser takes it (`ICE_SERVERS`, for viewers behind strict NATs). */
export interface IceServer {
  urls: string | string[];
  username?: string;
  credential?: string;
}

/** GET /api/config's `video`: the provider, and the STUN/TURN servers every WebRTC peer uses. */
export interface VideoClientConfig {
  provider: VideoProviderName;
  iceServers: IceServer[];
}

export type VideoRole = 'publisher' | 'subscriber';

/**
 * GET /api/live-sessions/{id}/video?role=publisher|subscriber: what the browser needs to join the
 * session's video. A publisher grant goes only to the session's editors (403 otherwise, SPEC's
 * 'token' failure); a subscriber grant to anyone. Agora's browser follows SPEC §7's own routes
 * (/api/agora-config, /api/agora-token) and gets only the channel here.
 */
export type VideoGrant =
  | { provider: 'embedded'; role: VideoRole; iceServers: IceServer[] }
  | {
      provider: 'janus';
      role: VideoRole;
      iceServers: IceServer[];
      /** Janus's WebSocket address as the browser reaches it. */
      url: string;
      /** The session's VideoRoom. */
      room: number;
      /** Publishers only: the room's `allowed` token, required to join as a publisher. */
      token?: string;
      /**
       * Viewers, when the show goes out through Janus edges (JANUS_EDGES): watch this Streaming
       * mountpoint on the edge at `url`, fed by the origin's RTP forwarders, instead of the
       * origin's room. `edge` is the edge's place in JANUS_EDGES. Absent without edges.
       */
      stream?: { id: number; edge: number };
    }
  | { provider: 'agora'; role: VideoRole; channel: string };

/**
 * The newest publishing feed of a Janus VideoRoom's `listparticipants` answer, or null: a seller's
 * page joins with its join time as `display`, so when a reconnect overlaps the old feed for a
 * moment, viewers (and the edges' forwarders) take the new one.
 */
export function newestPublisher(participants: unknown): number | null {
  if (!Array.isArray(participants)) return null;
  let best: { id: number; at: number } | null = null;
  for (const p of participants as { id?: unknown; display?: unknown; publisher?: unknown }[]) {
    if (p?.publisher !== true || typeof p.id !== 'number') continue;
    const at = Number(p.display) || 0;
    if (!best || at > best.at) best = { id: p.id, at };
  }
  return best?.id ?? null;
}

/** SPEC §7: GET /api/agora-config. */
export interface AgoraConfigAnswer {
  enabled: boolean;
  appId: string | null;
}
/** SPEC §7: GET /api/agora-token?channel={sessionId}&role=publisher|subscriber. */
export interface AgoraTokenAnswer {
  token: string;
  userAccount: string;
  /** epoch ms: renew before it. */
  expiresAt: number;
}

// ── Embedded SFU signalling over the page's Socket.IO connection ─────────────

export type VideoAckError =
  /** Not one of the session's editors (publish), or no such session. */
  | 'forbidden'
  /** Bad payload (not a uuid, no SDP, SDP too large). */
  | 'invalid'
  /**
   * The SDP is not an offer the SFU can serve: malformed, or not sending VP8 video (publish) or
   * not receiving VP8 video and Opus audio (subscribe). A browser that offers it cannot use this
   * video; asking again changes nothing.
   */
  | 'unsupported_offer'
  /** Nobody publishes in this session now (subscribe). */
  | 'not_publishing'
  /** The SFU is restarting or this server runs another provider: retry later. */
  | 'unavailable'
  /** Too many peers on this socket or this SFU. */
  | 'too_many';

export type VideoAck<T> = ({ ok: true } & T) | { ok: false; error: VideoAckError };

/** Client → server. */
export interface VideoPublishRequest {
  sessionId: string;
  /** The browser's offer (sendonly video + audio), ICE gathered. */
  sdp: string;
}
export type VideoPublishAck = VideoAck<{ sdp: string }>;
export interface VideoSubscribeRequest {
  sessionId: string;
  /**
   * The viewer's offer (recvonly video with VP8 and audio with Opus), ICE gathered. The viewer
   * offers so that the SFU is connected before the viewer's DTLS handshake starts (see the SFU's
   * worker).
   */
  sdp: string;
}
/** The SFU's answer (sendonly VP8 + Opus, `a=setup:passive`): the viewer sets it and is done. */
export type VideoSubscribeAck = VideoAck<{
  peerId: string;
  sdp: string;
  /** The session's videoPublisher epoch when this answer was made: only a newer live event calls for a new subscription. */
  epoch?: number;
}>;
export interface VideoLeaveRequest {
  sessionId: string;
}

/** Server → the session room `session:<id>`: whether the session's video is on the SFU now. */
export const VIDEO_PUBLISHER_EVENT = 'videoPublisher';
export interface VideoPublisherEvent {
  sessionId: string;
  live: boolean;
  /**
   * Why it went off: the seller stopped, the seller's connection was lost, or the SFU process
   * restarted (then the seller's page publishes again by itself, and viewers subscribe again).
   * 'replaced' goes only to a publisher whose session another tab or device of an editor took
   * over: that page stops publishing instead of taking it back.
   */
  reason?: 'stopped' | 'lost' | 'restart' | 'replaced';
  /** Bumped on every change, per session, by this server: viewers resubscribe on a newer live epoch. */
  epoch: number;
}

/** The largest SDP accepted from a browser (a real one is 3–8 KB). */
export const MAX_SDP_BYTES = 32 * 1024;

/**
 * An offer rewritten so that its sender is the DTLS client (`a=setup:active` instead of
 * `actpass`; the answer then says `passive`). Both uses keep the DTLS server from being sent a
 * ClientHello before it can read one, which a libdatachannel client resends only after 1 s (Chrome
 * after 50 ms):
 * - the Janus viewer, on Janus's offer: a viewer's ICE connects as soon as Janus answers its
 *   checks, which can be before the viewer's answer has reached Janus. As the client, Janus starts
 *   the handshake once it holds the answer;
 * - the embedded SFU, on a viewer's offer: the SFU's ICE connects before the viewer's can (see
 *   its worker), so the SFU answers as the server.
 */
export function offerAsDtlsClient(sdp: string): string {
  return sdp.replace(/^a=setup:actpass(?=\r?$)/gm, 'a=setup:active');
}

// ── SPEC §9 constants and readouts ───────────────────────────────────────────

export const TRACK_CHECK_EVERY_MS = 5000;
export const STATS_EVERY_MS = 2000;
export const ELAPSED_EVERY_MS = 1000;
export const MIC_LEVEL_THRESHOLDS = { warn: 30, high: 70 } as const;
export const QUALITY_THRESHOLDS = { poor: 2, good: 4 } as const;
export const CAMERA_STORAGE_KEY = 'livehub.cameraId';
export const MICROPHONE_STORAGE_KEY = 'livehub.microphoneId';
/** SPEC §9 stream settings. */
export const AGORA_CLIENT_CONFIG = { mode: 'live', codec: 'vp8' } as const;
/** Agora tokens last this long; the browser renews them before. */
export const AGORA_TOKEN_SECONDS = 3600;

/**
 * Network quality as 0–5 bars (VIDEO.md): 0 with no data; 5 when loss < 1 %, RTT < 100 ms and
 * jitter < 30 ms; 4 under 3 % / 200 / 50; 3 under 6 % / 300 / 80; 2 under 10 % / 500 / 150; else 1.
 */
export function qualityBars(lossPct: number | null, rttMs: number | null, jitterMs: number | null): number {
  if (lossPct === null && rttMs === null) return 0;
  const loss = lossPct ?? 0;
  const rtt = rttMs ?? 0;
  const jitter = jitterMs ?? 0;
  const steps: [number, number, number, number][] = [
    [5, 1, 100, 30],
    [4, 3, 200, 50],
    [3, 6, 300, 80],
    [2, 10, 500, 150],
  ];
  for (const [bars, l, r, j] of steps) if (loss < l && rtt < r && jitter < j) return bars;
  return 1;
}

/** Agora's `network-quality` (0 unknown, 1 excellent … 6 down) as 0–5 bars. */
export function agoraBars(quality: number): number {
  if (!Number.isInteger(quality) || quality <= 0 || quality >= 6) return 0;
  return 6 - quality;
}

/** 'poor' under 2 bars, 'fair' under 4, else 'good' (SPEC §9's colour thresholds). */
export function qualityTone(bars: number): 'poor' | 'fair' | 'good' {
  if (bars < QUALITY_THRESHOLDS.poor) return 'poor';
  if (bars < QUALITY_THRESHOLDS.good) return 'fair';
  return 'good';
}

/** 'low' under 30, 'mid' under 70, else 'high' (SPEC §9's microphone colours). */
export function micTone(level: number): 'low' | 'mid' | 'high' {
  if (level < MIC_LEVEL_THRESHOLDS.warn) return 'low';
  if (level < MIC_LEVEL_THRESHOLDS.high) return 'mid';
  return 'high';
}

/** The publishing clock: 'mm:ss', or 'h:mm:ss' from an hour. */
export function formatElapsed(ms: number): string {
  return formatClock(Math.floor(ms / 1000));
}

/** The readouts every 2 s (SPEC §2): bars 0–5, send bitrate in kbps, RTT in ms; null when unknown. */
export interface LinkStats {
  uplinkBars: number;
  downlinkBars: number;
  sendKbps: number | null;
  rttMs: number | null;
}
export const NO_LINK_STATS: LinkStats = { uplinkBars: 0, downlinkBars: 0, sendKbps: null, rttMs: null };

/** Whether a session's broadcast is on: started and not stopped since (SPEC §4). */
export function isBroadcasting(session: { lastStreamStart: number | null; lastStreamStop: number | null }): boolean {
  return session.lastStreamStart !== null && (session.lastStreamStop === null || session.lastStreamStop < session.lastStreamStart);
}
