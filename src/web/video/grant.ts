import type { VideoGrant, VideoRole } from '../../domain/video.js';
import { api, isApiError, NETWORK_ERROR_STATUS } from '../api/client';
import { VideoClientError } from './types';

/**
 * GET /api/live-sessions/{id}/video?role=…: what this browser needs to publish or watch. A refused
 * publisher grant is SPEC's 'token' failure; a server that cannot reach its video service, 'unavailable'.
 */
export async function fetchVideoGrant(sessionId: string, role: VideoRole, signal?: AbortSignal): Promise<VideoGrant> {
  try {
    return await api.get<VideoGrant>(`/api/live-sessions/${encodeURIComponent(sessionId)}/video?role=${role}`, signal);
  } catch (err) {
    if (isApiError(err)) {
      if (err.status === 401 || err.status === 403 || err.status === 404) throw new VideoClientError('token', err.message);
      if (err.status === 503 || err.status === NETWORK_ERROR_STATUS) throw new VideoClientError('unavailable', err.message);
    }
    throw new VideoClientError('failed', err instanceof Error ? err.message : String(err));
  }
}
