/**
 * HTTP Range (RFC 9110 §14) for the videos the server serves itself: a player seeks in a two-hour
 * replay by asking for the bytes it needs, never the whole file. One range per request, as every
 * video element asks (`bytes=0-`, `bytes=1000-1999`, `bytes=-500`); several ranges at once
 * (multipart answers) are answered as the whole, which the RFC allows.
 */

export type RangeAsked =
  /** No Range header, or several ranges: the whole file (200). */
  | { kind: 'whole' }
  /** Bytes start..end, inclusive, within the file (206). */
  | { kind: 'part'; start: number; end: number }
  /** A range that starts past the end, or a header that is not a byte range (416). */
  | { kind: 'unsatisfiable' };

const ONE = /^bytes=(\d{0,15})-(\d{0,15})$/;

export function rangeOf(header: string | undefined, size: number): RangeAsked {
  if (header === undefined) return { kind: 'whole' };
  const value = header.trim();
  if (/^bytes=[^,]*,/.test(value)) return { kind: 'whole' };
  const match = ONE.exec(value);
  if (!match) return { kind: 'unsatisfiable' };
  const [, from = '', to = ''] = match;
  if (from === '' && to === '') return { kind: 'unsatisfiable' };
  if (from === '') {
    // The last `to` bytes.
    const length = Number(to);
    if (length === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'part', start: Math.max(0, size - length), end: size - 1 };
  }
  const start = Number(from);
  const end = to === '' ? size - 1 : Math.min(Number(to), size - 1);
  if (start >= size || (to !== '' && Number(to) < start)) return { kind: 'unsatisfiable' };
  return { kind: 'part', start, end };
}
