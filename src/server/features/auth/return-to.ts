const FALLBACK = '/admin';

/**
 * Where to go after signing in: only a path on this site. Absolute URLs, protocol-relative
 * `//host`, backslash tricks and control characters all fall back to /admin.
 */
export function safeReturnTo(raw: unknown): string {
  if (typeof raw !== 'string' || raw.length > 2000) return FALLBACK;
  if (!raw.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\')) return FALLBACK;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control characters is the point.
  if (/[\u0000-\u001f\u007f\\]/.test(raw)) return FALLBACK;
  const base = 'http://martillo.invalid';
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    return FALLBACK;
  }
  if (url.origin !== base) return FALLBACK;
  // Coming back to a sign-in route would loop.
  if (/^\/auth(\/|$)/.test(url.pathname)) return FALLBACK;
  return `${url.pathname}${url.search}${url.hash}`;
}
