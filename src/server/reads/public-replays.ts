import { sql } from 'drizzle-orm';

/**
 * Whether a show's replay is anyone's to watch, as the lists and link previews tell it: made, with
 * its video, public (its seller did not hide it), not past its days (the retention job deletes it
 * within a day of them), of an ended show that is no rehearsal. Over `r` (replays) and `s`
 * (live_sessions). The share card and the seller's page ask through it, so a replay hidden,
 * deleted, expired, still being made or a rehearsal's shows in neither.
 */
export const PUBLIC_REPLAY = sql`(r.status = 'ready' and r.visibility = 'public' and r.video_key is not null
  and (r.expires_at is null or r.expires_at > now()) and s.status = 'ended' and not s.rehearsal)`;

/** The replay's MP4 and poster, as the replays feature serves them and GET /api/live-sessions/{id}/replay names them. */
export const publicReplayVideoPath = (sessionId: string) => `/api/live-sessions/${sessionId}/replay/video`;
export const publicReplayPosterPath = (sessionId: string) => `/api/live-sessions/${sessionId}/replay/poster`;
