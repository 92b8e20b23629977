/**
 * What the Janus viewer reads from Janus's answers, apart from janus.ts so it is tested without
 * loading janus.js.
 */

/**
 * The mids of the video streams among `streams` (a videoroom subscription's 'attached' event, or
 * a Streaming mountpoint's `info`): 'Ahorro de datos' asks Janus to stop sending exactly those
 * (the sound keeps flowing).
 */
export function videoStreamMids(streams: unknown): string[] {
  if (!Array.isArray(streams)) return [];
  return streams
    .filter((s): s is { type: string; mid: string } => typeof s?.type === 'string' && typeof s?.mid === 'string')
    .filter((s) => s.type === 'video')
    .map((s) => s.mid);
}

/** One stream of a Streaming mountpoint on an edge, as its `info` answer lists it. */
export interface MountpointStream {
  mid: string;
  type: string;
  /** How long ago the edge last received a packet of this stream; null when Janus did not say. */
  ageMs: number | null;
}

/** The streams of a mountpoint from the Streaming plugin's `info` answer (`{ streaming: 'info', info: { media } }`). */
export function mountpointStreams(answer: unknown): MountpointStream[] {
  const media = (answer as { info?: { media?: unknown } } | null)?.info?.media;
  if (!Array.isArray(media)) return [];
  return media
    .filter((s): s is { type: string; mid: string; age_ms?: unknown } => typeof s?.type === 'string' && typeof s?.mid === 'string')
    .map((s) => ({
      mid: s.mid,
      type: s.type,
      ageMs: typeof s.age_ms === 'number' && Number.isFinite(s.age_ms) && s.age_ms >= 0 ? s.age_ms : null,
    }));
}

/**
 * A watched stream that has had no packet at the edge for this long means the seller is not
 * sending (not publishing yet, or gone): the viewer waits instead of showing a frozen picture.
 * A camera sends several frames a second, so 3 s is never a live stream's quiet.
 */
export const STALE_MEDIA_MS = 3000;

/**
 * Whether the edge receives the seller's media now: 'live' when a stream this viewer receives
 * (the sound only with 'Ahorro de datos', else the sound and the picture) had a packet within
 * STALE_MEDIA_MS, 'stale' when none did, null when Janus gave no age to judge by. Either stream
 * counts, so a seller heard but not seen still plays.
 */
export function mediaFreshness(streams: MountpointStream[], audioOnly: boolean): 'live' | 'stale' | null {
  const watched = streams.filter((s) => s.type === 'audio' || (!audioOnly && s.type === 'video'));
  const ages = watched.map((s) => s.ageMs).filter((age): age is number => age !== null);
  if (ages.length === 0) return null;
  return ages.some((age) => age <= STALE_MEDIA_MS) ? 'live' : 'stale';
}

/**
 * A Streaming plugin event's result: its status ('preparing' with Janus's offer, 'starting',
 * 'started', 'stopped' when the mountpoint went away) or its event ('configured').
 */
export function streamingResult(msg: unknown): { status: string | null; event: string | null } {
  const result = (msg as { result?: { status?: unknown; event?: unknown } } | null)?.result;
  return {
    status: typeof result?.status === 'string' ? result.status : null,
    event: typeof result?.event === 'string' ? result.event : null,
  };
}
