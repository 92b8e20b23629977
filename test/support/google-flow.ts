import type { MockGoogle, MockIdentity } from './mock-google.js';
import { cookieFrom } from './server.js';

export interface FlowResult {
  /** The app's answer to the callback. */
  response: Response;
  /** The callback URL the issuer sent the browser to (for replay tests). */
  callbackUrl: string;
  stateCookie: string | undefined;
  sessionCookie: string | undefined;
}

/** Walks a browser's redirects through Google-style sign-in, over plain HTTP. */
export async function signInWithGoogle(
  baseUrl: string,
  google: MockGoogle,
  opts: { identity?: MockIdentity; returnTo?: string; alterCallback?: (url: URL) => void; dropStateCookie?: boolean } = {},
): Promise<FlowResult> {
  if (opts.identity) google.setNextIdentity(opts.identity);
  const start = await fetch(`${baseUrl}/auth/google?returnTo=${encodeURIComponent(opts.returnTo ?? '/admin')}`, { redirect: 'manual' });
  if (start.status !== 302) throw new Error(`/auth/google answered ${start.status}`);
  const stateCookie = cookieFrom(start.headers.getSetCookie(), 'martillo_oidc');
  const authorize = await fetch(start.headers.get('location') as string, { redirect: 'manual' });
  const callback = new URL(authorize.headers.get('location') as string);
  opts.alterCallback?.(callback);
  const response = await callbackWith(callback.href, opts.dropStateCookie ? undefined : stateCookie);
  return { response, callbackUrl: callback.href, stateCookie, sessionCookie: cookieFrom(response.headers.getSetCookie(), 'martillo_session') };
}

export function callbackWith(url: string, stateCookie: string | undefined): Promise<Response> {
  return fetch(url, { redirect: 'manual', headers: stateCookie ? { cookie: stateCookie } : {} });
}

export async function me(baseUrl: string, sessionCookie: string | undefined): Promise<Response> {
  return fetch(`${baseUrl}/api/me`, { headers: sessionCookie ? { cookie: sessionCookie } : {} });
}
