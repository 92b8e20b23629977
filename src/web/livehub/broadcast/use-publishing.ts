import { type RefObject, useCallback, useEffect, useRef, useState } from 'react';
import { ELAPSED_EVERY_MS, type LinkStats, NO_LINK_STATS, STATS_EVERY_MS, TRACK_CHECK_EVERY_MS, type VideoClientConfig } from '../../../domain/video.js';
import { isApiError } from '../../api/client';
import { isSessionEndedError, stopStreamOnLeave, useStreamActions } from '../../api/live-hub';
import { getSocket } from '../../api/socket';
import { useTranslation } from '../../i18n';
import { loadVideoClient } from '../../video/load-client';
import { type PublishHandle, type PublishStatus, VideoClientError } from '../../video/types';
import type { BroadcastStatus } from './use-broadcast-status';
import type { LocalMedia } from './use-local-media';

export interface PublishTarget {
  /** The loaded session, or null ('Por favor carga una sesión…'). */
  sessionId: string | null;
  video: VideoClientConfig | null;
}

/** 'sessionEnded': the server refused because the session ended (and `reopen` was not sent). */
export type StartOutcome = 'started' | 'sessionEnded' | 'failed';

/** Why 'Iniciar' failed: the server's own word on a refusal (a reopen conflict, say), else the provider's reason. */
function startFailureDetail(err: unknown, t: ReturnType<typeof useTranslation>['t']): string {
  if (isApiError(err) && err.status === 409 && !err.code.startsWith('HTTP_')) return err.message;
  const reason = err instanceof VideoClientError ? err.reason : isApiError(err) ? 'server' : 'failed';
  return t(`livehub.broadcast.reason.${reason}`);
}

/**
 * Publishing through the configured provider (loaded on demand) and the server's start/stop
 * (SPEC §4), the provider's link, the 2-second readouts, the elapsed clock and the 5-second video
 * track check (SPEC §9). `handle` is the provider's publish handle while it sends.
 */
export function usePublishing(
  target: PublishTarget,
  {
    handle: handleRef,
    media: { capture, release, streamRef },
    status: { phase, setPhase, fail, warn, clearError },
  }: {
    handle: RefObject<PublishHandle | null>;
    media: Pick<LocalMedia, 'capture' | 'release' | 'streamRef'>;
    status: Pick<BroadcastStatus, 'phase' | 'setPhase' | 'fail' | 'warn' | 'clearError'>;
  },
) {
  const { t } = useTranslation();
  const streamAction = useStreamActions();
  const [link, setLink] = useState<PublishStatus | null>(null);
  const [stats, setStats] = useState<LinkStats>(NO_LINK_STATS);
  const [startedAt, setStartedAt] = useState<number | null>(null);
  const [now, setNow] = useState(() => Date.now());

  // The session the handle publishes to, which the stop tells the server even if another was loaded since.
  const publishingSessionRef = useRef<string | null>(null);
  // When the server says this page's 'Iniciar' started the broadcast (its lastStreamStart): a page that
  // goes stops that broadcast only, not one another tab or device started since.
  const startedAtRef = useRef<number | null>(null);
  const targetRef = useRef(target);
  targetRef.current = target;

  const start = useCallback(
    async (startOpts: { reopen?: boolean } = {}): Promise<StartOutcome> => {
      const { sessionId, video } = targetRef.current;
      clearError();
      if (!sessionId) {
        fail(t('livehub.broadcast.needSession'));
        return 'failed';
      }
      if (!video) {
        fail(t('livehub.broadcast.startFailed'), t('livehub.broadcast.reason.unavailable'));
        return 'failed';
      }
      if (handleRef.current) return 'failed';
      setPhase('starting');
      const media = await capture();
      if (!media) return 'failed';
      let handle: PublishHandle | null = null;
      try {
        const client = await loadVideoClient(video.provider);
        handle = await client.publish({ sessionId, stream: media, config: video, socket: getSocket(), onStatus: setLink });
        handleRef.current = handle;
        publishingSessionRef.current = sessionId;
        const started = await streamAction(sessionId, 'start', { reopen: startOpts.reopen });
        startedAtRef.current = 'lastStreamStart' in started.session ? started.session.lastStreamStart : null;
        setStartedAt(Date.now());
        setPhase('publishing');
        return 'started';
      } catch (err) {
        handleRef.current = null;
        publishingSessionRef.current = null;
        await handle?.stop().catch(() => {});
        setLink(null);
        if (!startOpts.reopen && isSessionEndedError(err)) {
          setPhase(streamRef.current ? 'previewing' : 'idle');
          return 'sessionEnded';
        }
        fail(t('livehub.broadcast.startFailed'), startFailureDetail(err, t));
        return 'failed';
      }
    },
    [handleRef, streamRef, capture, clearError, fail, setPhase, streamAction, t],
  );

  const stop = useCallback(async () => {
    const handle = handleRef.current;
    const sessionId = publishingSessionRef.current ?? targetRef.current.sessionId;
    setPhase('stopping');
    handleRef.current = null;
    publishingSessionRef.current = null;
    await handle?.stop().catch(() => {});
    release();
    setLink(null);
    setStats(NO_LINK_STATS);
    setStartedAt(null);
    setPhase('idle');
    if (sessionId) {
      try {
        await streamAction(sessionId, 'stop');
      } catch {
        warn(t('livehub.broadcast.stopFailed'));
      }
    }
  }, [handleRef, release, setPhase, streamAction, warn, t]);

  /**
   * The server stopped the broadcast while this page still sent (its connection was gone past the
   * grace, or an editor's other device pressed 'Detener'): this page stops sending too, keeps the
   * camera, and says why with `message`. The server already holds the stop.
   */
  const letGo = useCallback(
    async (message: string) => {
      const handle = handleRef.current;
      if (!handle) return;
      handleRef.current = null;
      publishingSessionRef.current = null;
      await handle.stop().catch(() => {});
      setLink(null);
      setStats(NO_LINK_STATS);
      setStartedAt(null);
      setPhase(streamRef.current ? 'previewing' : 'idle');
      warn(message);
    },
    [handleRef, streamRef, setPhase, warn],
  );

  // The page goes while on the air (the tab closes or reloads, or another screen of the app takes
  // the Hub's place): the server hears 'Detener', so buyers read that the video stopped. A reload
  // finds the mark and says why the broadcast is off (leftOnAir).
  useEffect(() => {
    const leave = (isPageGoing: boolean) => {
      const sessionId = publishingSessionRef.current;
      if (!sessionId) return;
      stopStreamOnLeave(sessionId, startedAtRef.current);
      if (isPageGoing) markLeftOnAir(sessionId);
    };
    const onPageHide = () => leave(true);
    window.addEventListener('pagehide', onPageHide);
    return () => {
      window.removeEventListener('pagehide', onPageHide);
      leave(false);
    };
  }, []);

  const isPublishing = phase === 'publishing';

  // Another tab or device of an editor took the broadcast over: this page lets go (the session stays live).
  useEffect(() => {
    if (link !== 'replaced') return;
    const handle = handleRef.current;
    handleRef.current = null;
    publishingSessionRef.current = null;
    void handle?.stop().catch(() => {});
    release();
    setStats(NO_LINK_STATS);
    setStartedAt(null);
    setLink(null);
    fail(t('livehub.broadcast.replaced'));
  }, [link, handleRef, release, fail, t]);

  // SPEC §9: the 2-second readouts and the 1-second clock while publishing.
  useEffect(() => {
    if (!isPublishing) return;
    const sample = () =>
      void handleRef.current
        ?.stats()
        .then(setStats)
        .catch(() => {});
    sample();
    const statsTimer = window.setInterval(sample, STATS_EVERY_MS);
    const clock = window.setInterval(() => setNow(Date.now()), ELAPSED_EVERY_MS);
    return () => {
      window.clearInterval(statsTimer);
      window.clearInterval(clock);
    };
  }, [isPublishing, handleRef]);

  // SPEC §4: every 5 s while publishing, a disabled video track is re-enabled.
  useEffect(() => {
    if (!isPublishing) return;
    const timer = window.setInterval(() => {
      for (const track of streamRef.current?.getVideoTracks() ?? []) if (!track.enabled) track.enabled = true;
    }, TRACK_CHECK_EVERY_MS);
    return () => window.clearInterval(timer);
  }, [isPublishing, streamRef]);

  return { link, stats, startedAt, elapsedMs: startedAt ? Math.max(0, now - startedAt) : 0, start, stop, letGo };
}

/** The tab's own memory (sessionStorage survives a reload, not a new tab) of a page that went while on the air. */
const LEFT_ON_AIR_KEY = 'martillo:left-on-air';
/** A mark older than this is another visit, not a reload. */
const LEFT_ON_AIR_MS = 5 * 60_000;

function markLeftOnAir(sessionId: string): void {
  try {
    window.sessionStorage.setItem(LEFT_ON_AIR_KEY, JSON.stringify({ sessionId, at: Date.now() }));
  } catch {
    // Storage refused (private mode): the reloaded page just does not say why.
  }
}

/** The mark as this page load found it (read once: it is gone from storage after that). */
let foundMark: { sessionId: string; at: number } | null | undefined;

/** Whether this tab was on the air with `sessionId` when its page went a moment ago (a reload). */
export function leftOnAir(sessionId: string): boolean {
  if (foundMark === undefined) {
    foundMark = null;
    try {
      const raw = window.sessionStorage.getItem(LEFT_ON_AIR_KEY);
      window.sessionStorage.removeItem(LEFT_ON_AIR_KEY);
      const mark = raw ? (JSON.parse(raw) as { sessionId?: unknown; at?: unknown }) : null;
      if (mark && typeof mark.sessionId === 'string' && typeof mark.at === 'number') foundMark = { sessionId: mark.sessionId, at: mark.at };
    } catch {
      // Unreadable: as if there were none.
    }
  }
  return foundMark?.sessionId === sessionId && Date.now() - foundMark.at < LEFT_ON_AIR_MS;
}

/** The seller has read why (or went live again): the mark is spent for this page load. */
export function forgetLeftOnAir(): void {
  foundMark = null;
}
