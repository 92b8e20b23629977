import type { VideoGrant, VideoRole } from '../../domain/video.js';
import { api, isApiError, NETWORK_ERROR_STATUS } from '../api/client';
import { randomUuid } from '../lib/browser';
import { VideoClientError } from './types';

const VIEWER_KEY = 'martillo.videoViewer';

/**
 * This tab's viewer id: sessionStorage keeps it across the page's reloads, not into a new tab. The
 * server counts a viewer once on the video edge she waits on, however often her page reloads.
 * Null where the browser keeps no storage (a private window may refuse it).
 */
function viewerId(): string | null {
  try {
    const kept = window.sessionStorage.getItem(VIEWER_KEY);
    if (kept) return kept;
    const made = randomUuid();
    window.sessionStorage.setItem(VIEWER_KEY, made);
    return made;
  } catch {
    return null;
  }
}

/**
 * GET /api/live-sessions/{id}/video?role=…: what this browser needs to publish or watch. A refused
 * publisher grant is SPEC's 'token' failure; a server that cannot reach its video service, 'unavailable'.
 */
export async function fetchVideoGrant(sessionId: string, role: VideoRole, signal?: AbortSignal): Promise<VideoGrant> {
  const viewer = role === 'subscriber' ? viewerId() : null;
  const query = `role=${role}${viewer ? `&viewer=${encodeURIComponent(viewer)}` : ''}`;
  try {
    return await api.get<VideoGrant>(`/api/live-sessions/${encodeURIComponent(sessionId)}/video?${query}`, signal);
  } catch (err) {
    if (isApiError(err)) {
      if (err.status === 401 || err.status === 403 || err.status === 404) throw new VideoClientError('token', err.message);
      if (err.status === 503 || err.status === NETWORK_ERROR_STATUS) throw new VideoClientError('unavailable', err.message);
    }
    throw new VideoClientError('failed', err instanceof Error ? err.message : String(err));
  }
}
