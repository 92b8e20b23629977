/**
 * The mids of a Janus videoroom subscription's video streams, from its 'attached' event: 'Ahorro
 * de datos' asks Janus to stop sending exactly those (the sound keeps flowing). Apart from
 * janus.ts so it is tested without loading janus.js.
 */
export function videoStreamMids(streams: unknown): string[] {
  if (!Array.isArray(streams)) return [];
  return streams
    .filter((s): s is { type: string; mid: string } => typeof s?.type === 'string' && typeof s?.mid === 'string')
    .filter((s) => s.type === 'video')
    .map((s) => s.mid);
}
