import type { IAgoraRTC, IAgoraRTCClient, IAgoraRTCRemoteUser, ILocalAudioTrack, ILocalTrack, ILocalVideoTrack, NetworkQuality, UID } from 'agora-rtc-sdk-ng';
import { AGORA_CLIENT_CONFIG, type AgoraConfigAnswer, type AgoraTokenAnswer, agoraBars, type LinkStats, type VideoRole } from '../../domain/video.js';
import { api, isApiError, NETWORK_ERROR_STATUS } from '../api/client';
import { RESOLUTION_HOLD_MS } from './encoder-start';
import { type PublishHandle, type PublishOptions, type VideoClient, VideoClientError, type WatchHandle, type WatchOptions } from './types';

/**
 * SPEC §7's cloud video on agora-rtc-sdk-ng: the seller joins the session's live-mode vp8 channel
 * as host and publishes the Hub's own camera and microphone tracks; viewers join as audience.
 * The SDK (1.6 MB) is imported only here, on demand. Tokens come from /api/agora-token and are
 * renewed when the SDK warns they will expire; a dropped connection is joined again with a fresh
 * token until the handle stops.
 */

/** A join that neither succeeds nor fails by then (no route to Agora: the SDK keeps retrying) is 'unavailable'. */
export const AGORA_JOIN_TIMEOUT_MS = 20_000;
const RETRY_MIN_MS = 1000;
const RETRY_MAX_MS = 5000;
/** SDK log level: warnings and errors in the console (0 debug … 4 none). */
const LOG_LEVEL = 2;

let sdkLoading: Promise<IAgoraRTC> | null = null;

/** The SDK, loaded once; a failed load (offline, a new deploy replaced the chunk) may be retried. */
function loadSdk(): Promise<IAgoraRTC> {
  sdkLoading ??= import('agora-rtc-sdk-ng')
    .then(({ default: sdk }) => {
      // The SDK uploads its logs to Agora unless told not to.
      sdk.disableLogUpload();
      sdk.setLogLevel(LOG_LEVEL);
      return sdk;
    })
    .catch((err: unknown) => {
      sdkLoading = null;
      throw new VideoClientError('unavailable', `agora-rtc-sdk-ng did not load: ${describe(err)}`);
    });
  return sdkLoading;
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

// ── The server's side (SPEC §7) ──────────────────────────────────────────────

async function fetchAppId(): Promise<string> {
  let answer: AgoraConfigAnswer;
  try {
    answer = await api.get<AgoraConfigAnswer>('/api/agora-config');
  } catch (err) {
    throw new VideoClientError(isApiError(err) && err.status === NETWORK_ERROR_STATUS ? 'unavailable' : 'failed', describe(err));
  }
  if (!answer.enabled || !answer.appId) throw new VideoClientError('disabled', 'Agora is not configured on this server');
  return answer.appId;
}

/** A refused token is SPEC's 'token' failure; a server without Agora, 'disabled'; no answer, 'unavailable'. */
async function fetchToken(channel: string, role: VideoRole): Promise<AgoraTokenAnswer> {
  try {
    return await api.get<AgoraTokenAnswer>(`/api/agora-token?channel=${encodeURIComponent(channel)}&role=${role}`);
  } catch (err) {
    if (isApiError(err)) {
      if (err.status === 503 && err.code === 'VIDEO_DISABLED') throw new VideoClientError('disabled', err.message);
      if (err.status === NETWORK_ERROR_STATUS || err.status === 429 || err.status >= 500) throw new VideoClientError('unavailable', err.message);
    }
    throw new VideoClientError('token', describe(err));
  }
}

// ── The SDK's side ──────────────────────────────────────────────────────────

/** The SDK's errors carry a string code (AgoraRTCErrorCode); the class itself is not exported. */
function agoraCode(err: unknown): string | null {
  return typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string' ? err.code : null;
}

const NETWORK_CODES = new Set([
  'NETWORK_ERROR',
  'NETWORK_TIMEOUT',
  'NETWORK_RESPONSE_ERROR',
  'WS_ABORT',
  'WS_DISCONNECT',
  'WS_ERR',
  'OPERATION_ABORTED',
  'UNEXPECTED_RESPONSE',
]);

/** An SDK failure as the panel tells it: Agora refusing the token, Agora out of reach, or anything else. */
function fromAgora(err: unknown): VideoClientError {
  if (err instanceof VideoClientError) return err;
  const code = agoraCode(err);
  const message = describe(err);
  if (code === 'CAN_NOT_GET_GATEWAY_SERVER' || code === 'INVALID_TOKEN' || code === 'TOKEN_EXPIRE') {
    // The gateway answers "invalid token", "dynamic key expired", "no authorized"… for a bad key or token.
    if (code !== 'CAN_NOT_GET_GATEWAY_SERVER' || /token|key|authoriz|vendor/i.test(message)) return new VideoClientError('token', message);
    return new VideoClientError('unavailable', message);
  }
  if (code && NETWORK_CODES.has(code)) return new VideoClientError('unavailable', message);
  return new VideoClientError('failed', message);
}

/**
 * Joins within AGORA_JOIN_TIMEOUT_MS. SPEC §4: joining a channel this client is already in (or
 * still joining) is refused by the SDK with INVALID_OPERATION: leave, then join once more.
 */
async function joinChannel(client: IAgoraRTCClient, appId: string, channel: string, grant: AgoraTokenAnswer): Promise<UID> {
  const attempt = async () => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        // Leaving aborts the SDK's own retries, so nothing keeps trying behind our back.
        void client.leave().catch(() => {});
        reject(new VideoClientError('unavailable', `Agora did not answer within ${AGORA_JOIN_TIMEOUT_MS / 1000} s`));
      }, AGORA_JOIN_TIMEOUT_MS);
    });
    try {
      return await Promise.race([client.join(appId, channel, grant.token, grant.userAccount), timeout]);
    } finally {
      clearTimeout(timer);
    }
  };
  try {
    return await attempt();
  } catch (err) {
    if (agoraCode(err) !== 'INVALID_OPERATION') throw fromAgora(err);
    await client.leave().catch(() => {});
    try {
      return await attempt();
    } catch (again) {
      throw fromAgora(again);
    }
  }
}

/** Renews the client's token before it runs out; a failed renewal is retried on the next warning, then by rejoining. */
function renewTokens(client: IAgoraRTCClient, channel: string, role: VideoRole, isStopped: () => boolean) {
  client.on('token-privilege-will-expire', async () => {
    if (isStopped()) return;
    try {
      const next = await fetchToken(channel, role);
      if (!isStopped()) await client.renewToken(next.token);
    } catch {
      // The SDK warns again before the end; past it, the connection drops and is joined again with a new token.
    }
  });
}

// ── Publishing ──────────────────────────────────────────────────────────────

async function publish(opts: PublishOptions): Promise<PublishHandle> {
  const { sessionId, stream, onStatus } = opts;
  onStatus('connecting');
  const appId = await fetchAppId();
  const sdk = await loadSdk();
  const client = sdk.createClient({ ...AGORA_CLIENT_CONFIG });
  let stopped = false;
  let rejoining = false;
  /** Until the first join resolves, publish() itself reports: the SDK's own state changes are its retries. */
  let started = false;
  let quality: NetworkQuality | null = null;
  let video: ILocalVideoTrack | null = null;
  let audio: ILocalAudioTrack | null = null;

  // Custom tracks over the caller's own tracks: muting (track.enabled) and the 5 s camera check act on what is sent.
  const first = { video: stream.getVideoTracks()[0], audio: stream.getAudioTracks()[0] };
  if (!first.video && !first.audio) throw new VideoClientError('failed', 'the stream has no track to publish');
  if (first.video) video = sdk.createCustomVideoTrack({ mediaStreamTrack: first.video, optimizationMode: 'detail' });
  if (first.audio) audio = sdk.createCustomAudioTrack({ mediaStreamTrack: first.audio });
  const tracks = () => [video, audio].filter((t): t is ILocalVideoTrack | ILocalAudioTrack => t !== null) as ILocalTrack[];

  /**
   * Each join is a new encoder. The SDK gives it a start bitrate from the camera's size
   * (x-google-start-bitrate), but its default 'balanced' mode still starts a 1280x720 camera a
   * step down and climbs back slowly (encoder-start.ts): 'detail' (maintain-resolution) while it
   * starts, then the default again.
   */
  let holdTimer: ReturnType<typeof setTimeout> | undefined;
  const holdResolution = async () => {
    clearTimeout(holdTimer);
    await video?.setOptimizationMode('detail').catch(() => {});
  };
  const releaseResolutionLater = () => {
    const track = video;
    clearTimeout(holdTimer);
    holdTimer = setTimeout(() => {
      if (!stopped && track && video === track) void track.setOptimizationMode('balanced').catch(() => {});
    }, RESOLUTION_HOLD_MS);
  };

  /** One join with a fresh token, then the tracks. */
  async function connect() {
    const grant = await fetchToken(sessionId, 'publisher');
    if (stopped) return;
    await client.setClientRole('host');
    await joinChannel(client, appId, sessionId, grant);
    if (stopped) return;
    try {
      await holdResolution();
      await client.publish(tracks());
      releaseResolutionLater();
    } catch (err) {
      throw fromAgora(err);
    }
  }

  /** After a drop the SDK gave up on: join again until it works, the token is refused, or stop. */
  async function rejoin() {
    if (stopped || rejoining) return;
    rejoining = true;
    onStatus('reconnecting');
    for (let delay = RETRY_MIN_MS; !stopped; delay = Math.min(delay * 2, RETRY_MAX_MS)) {
      try {
        await client.leave().catch(() => {});
        await connect();
        if (!stopped) onStatus('live');
        break;
      } catch (err) {
        const reason = fromAgora(err).reason;
        if (reason === 'token' || reason === 'disabled') {
          if (!stopped) onStatus('failed');
          break;
        }
        await sleep(delay);
      }
    }
    rejoining = false;
  }

  client.on('network-quality', (q: NetworkQuality) => {
    quality = q;
  });
  client.on('connection-state-change', (current, _previous, reason) => {
    if (stopped || rejoining || !started) return;
    if (current === 'RECONNECTING') onStatus('reconnecting');
    else if (current === 'CONNECTED') onStatus('live');
    else if (current === 'DISCONNECTED' && reason !== 'LEAVE') {
      if (reason === 'UID_BANNED' || reason === 'IP_BANNED' || reason === 'CHANNEL_BANNED') onStatus('failed');
      else void rejoin();
    }
  });
  renewTokens(client, sessionId, 'publisher', () => stopped);

  try {
    await connect();
  } catch (err) {
    stopped = true;
    await client.leave().catch(() => {});
    throw fromAgora(err);
  }
  started = true;
  onStatus('live');

  return {
    async replaceTrack(track) {
      if (track.kind === 'video' && video) {
        // The old track is the caller's to stop.
        await video.replaceTrack(track, false);
        return;
      }
      // Audio tracks cannot swap their source: publish a new one in place of the old.
      const old = track.kind === 'video' ? video : audio;
      const added = track.kind === 'video' ? sdk.createCustomVideoTrack({ mediaStreamTrack: track }) : sdk.createCustomAudioTrack({ mediaStreamTrack: track });
      if (added.trackMediaType === 'video') video = added as ILocalVideoTrack;
      else audio = added as ILocalAudioTrack;
      if (client.connectionState !== 'CONNECTED') return;
      try {
        if (old) await client.unpublish(old);
        await client.publish(added);
      } catch (err) {
        throw fromAgora(err);
      }
    },
    async stats(): Promise<LinkStats> {
      const rtc = client.connectionState === 'CONNECTED' ? client.getRTCStats() : null;
      return {
        uplinkBars: quality ? agoraBars(quality.uplinkNetworkQuality) : 0,
        downlinkBars: quality ? agoraBars(quality.downlinkNetworkQuality) : 0,
        sendKbps: rtc ? Math.round(rtc.SendBitrate / 1000) : null,
        rttMs: rtc?.RTT ? Math.round(rtc.RTT) : null,
      };
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      clearTimeout(holdTimer);
      client.removeAllListeners();
      // Leaving unpublishes; the custom tracks are not closed, since closing would stop the caller's camera and microphone.
      await client.leave().catch(() => {});
    },
  };
}

// ── Watching ────────────────────────────────────────────────────────────────

function watch(opts: WatchOptions): WatchHandle {
  const { sessionId, onStream, onStatus } = opts;
  let stopped = false;
  let client: IAgoraRTCClient | null = null;
  /** The host whose media plays: the last one who published video (a second editor may take over). */
  let showing: IAgoraRTCRemoteUser | null = null;

  function show() {
    if (stopped) return;
    const user = showing;
    const media = [user?.videoTrack?.getMediaStreamTrack(), user?.audioTrack?.getMediaStreamTrack()].filter((t): t is MediaStreamTrack => Boolean(t));
    // 'Ahorro de datos' plays the host's sound alone; otherwise a host without video is not shown.
    const shown = opts.audioOnly ? user?.audioTrack : user?.videoTrack;
    if (!shown || media.length === 0) {
      onStream(null);
      onStatus('waiting');
      return;
    }
    onStream(new MediaStream(media));
    onStatus('playing');
  }

  async function session(sdk: IAgoraRTC, appId: string) {
    const c = sdk.createClient({ ...AGORA_CLIENT_CONFIG });
    client = c;
    c.on('user-published', async (user: IAgoraRTCRemoteUser, mediaType) => {
      if (mediaType === 'datachannel') return;
      // 'Ahorro de datos': the video is never subscribed to, so Agora never sends it.
      if (mediaType === 'video' && opts.audioOnly) return;
      try {
        await c.subscribe(user, mediaType);
      } catch {
        return;
      }
      if (mediaType === (opts.audioOnly ? 'audio' : 'video') || !showing) showing = user;
      if (showing === user) show();
    });
    const gone = (user: IAgoraRTCRemoteUser) => {
      if (showing?.uid !== user.uid) return;
      // Another host still sending video takes over; otherwise the player waits.
      showing = c.remoteUsers.find((u) => u.uid !== user.uid && u.videoTrack) ?? (user.videoTrack ? user : null);
      show();
    };
    c.on('user-unpublished', (user: IAgoraRTCRemoteUser) => gone(user));
    c.on('user-left', (user: IAgoraRTCRemoteUser) => gone({ ...user, videoTrack: undefined, audioTrack: undefined } as IAgoraRTCRemoteUser));
    c.on('connection-state-change', (current, _previous, reason) => {
      if (stopped) return;
      if (current === 'RECONNECTING') onStatus('reconnecting');
      else if (current === 'CONNECTED') show();
      else if (current === 'DISCONNECTED' && reason !== 'LEAVE') void loop();
    });
    renewTokens(c, sessionId, 'subscriber', () => stopped || client !== c);
    const grant = await fetchToken(sessionId, 'subscriber');
    if (stopped) return;
    await c.setClientRole('audience');
    await joinChannel(c, appId, sessionId, grant);
    show();
  }

  let looping = false;
  /** Joins, and joins again after a failure, until stopped or refused for good. */
  async function loop() {
    if (looping) return;
    looping = true;
    const previous = client;
    client = null;
    showing = null;
    if (previous) {
      previous.removeAllListeners();
      await previous.leave().catch(() => {});
      onStream(null);
      onStatus('reconnecting');
    }
    for (let delay = RETRY_MIN_MS; !stopped; delay = Math.min(delay * 2, RETRY_MAX_MS)) {
      try {
        const appId = await fetchAppId();
        await session(await loadSdk(), appId);
        break;
      } catch (err) {
        const failure = fromAgora(err);
        // `session` may have set it before failing.
        const dropped = client as IAgoraRTCClient | null;
        client = null;
        if (dropped) {
          dropped.removeAllListeners();
          await dropped.leave().catch(() => {});
        }
        if (stopped) break;
        if (failure.reason === 'token' || failure.reason === 'disabled') {
          onStatus('failed');
          break;
        }
        onStatus('reconnecting');
        await sleep(delay);
      }
    }
    looping = false;
  }

  onStatus('connecting');
  void loop();
  return {
    stop() {
      if (stopped) return;
      stopped = true;
      const c = client;
      client = null;
      if (c) {
        c.removeAllListeners();
        void c.leave().catch(() => {});
      }
    },
  };
}

/**
 * `loadSdk` rides along for the browser test (e2e/video/agora-sdk.spec.ts), which imports this
 * module's chunk from the built app and checks the very SDK instance publishing uses.
 */
export const agoraClient: VideoClient & { loadSdk: () => Promise<IAgoraRTC> } = { publish, watch, loadSdk };
