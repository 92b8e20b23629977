import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, authSessions, users } from '../../../../src/server/db/schema.js';
import { messages } from '../../../../src/server/messages.js';
import { createOidcProvider } from '../../../../src/server/providers/identity/oidc.js';
import { hashToken, resolveSession } from '../../../../src/server/sessions/store.js';
import { callbackWith, me, signInWithGoogle } from '../../../support/google-flow.js';
import { type MockGoogle, startMockGoogle } from '../../../support/mock-google.js';
import { startTestServer, type TestServer } from '../../../support/server.js';

let google: MockGoogle;
let server: TestServer;

beforeAll(async () => {
  google = await startMockGoogle();
  server = await startTestServer({
    env: { OIDC_ISSUER: google.issuer, GOOGLE_CLIENT_ID: google.clientId, GOOGLE_CLIENT_SECRET: google.clientSecret, ADMIN_EMAILS: 'dueno@martillo.mx' },
  });
});
afterAll(async () => {
  await server?.close();
  await google?.stop();
});

const pageText = async (res: Response) => res.text();

describe('Google sign-in (OpenID Connect, code flow with PKCE)', () => {
  it('sends the browser to the issuer with PKCE, state and nonce', async () => {
    const res = await fetch(`${server.url}/auth/google?returnTo=/admin`, { redirect: 'manual' });
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get('location') as string);
    expect(location.origin).toBe(new URL(google.issuer).origin);
    expect(location.searchParams.get('code_challenge_method')).toBe('S256');
    expect(location.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(location.searchParams.get('state')).toBeTruthy();
    expect(location.searchParams.get('nonce')).toBeTruthy();
    expect(location.searchParams.get('redirect_uri')).toBe(`${server.url}/auth/google/callback`);
    expect(location.searchParams.get('scope')).toBe('openid email profile');
  });

  it('signs a new user in as a buyer and returns to the page they came from', async () => {
    const flow = await signInWithGoogle(server.url, google, {
      identity: { email: 'Luis.Perez@Gmail.com', name: 'Luis Pérez', given_name: 'Luis', family_name: 'Pérez' },
      returnTo: '/admin/livehub?x=1',
    });
    expect(flow.response.status).toBe(302);
    expect(flow.response.headers.get('location')).toBe('/admin/livehub?x=1');
    const setCookie = flow.response.headers.getSetCookie().find((c) => c.startsWith('martillo_session=')) ?? '';
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(setCookie).not.toMatch(/Secure/i);

    const res = await me(server.url, flow.sessionCookie);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.user.email).toBe('luis.perez@gmail.com');
    expect(body.roles).toEqual(['buyer']);
    expect(body.profile.firstName).toBe('Luis');
    expect(body.profile.lastName).toBe('Pérez');
    expect(body.companyId).toBe(body.user.id);
    expect(body.profileComplete).toBe(false);

    // Only a keyed hash of the token is stored.
    const token = (flow.sessionCookie as string).split('=')[1] as string;
    const rows = await server.ctx.db.select().from(authSessions).where(eq(authSessions.userId, body.user.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]?.tokenHash).toBe(hashToken(token, server.ctx.config.sessionSecret));
    expect(rows[0]?.tokenHash).not.toBe(hashToken(token, 'another-secret-another-secret-xx'));
    expect(rows[0]?.tokenHash).not.toContain(token);
  });

  it('recognises a returning user by their Google subject, without a second account', async () => {
    const identity = { sub: 'google-sub-777', email: 'marta@gmail.com', name: 'Marta Ruiz' };
    await signInWithGoogle(server.url, google, { identity });
    await signInWithGoogle(server.url, google, { identity: { ...identity, email: 'marta.ruiz@gmail.com' } });
    const rows = await server.ctx.db.select().from(users).where(eq(users.oidcSubject, 'google-sub-777'));
    expect(rows).toHaveLength(1);
    expect(rows[0]?.email).toBe('marta.ruiz@gmail.com');
  });

  it('grants admin to an ADMIN_EMAILS address at every sign-in, and audits it', async () => {
    const flow = await signInWithGoogle(server.url, google, { identity: { email: 'dueno@martillo.mx', name: 'Dueño' } });
    const body = await (await me(server.url, flow.sessionCookie)).json();
    expect(body.roles).toEqual(['buyer', 'admin']);
    // Someone removes the role by hand; the next sign-in restores it.
    await server.ctx.db.execute(sql`update user_profiles set roles = array['buyer'] where user_id = ${body.user.id}`);
    const again = await signInWithGoogle(server.url, google, { identity: { email: 'dueno@martillo.mx', name: 'Dueño' } });
    expect((await (await me(server.url, again.sessionCookie)).json()).roles).toContain('admin');
    const audits = await server.ctx.db.select().from(auditLog).where(eq(auditLog.entityId, body.user.id));
    expect(audits.filter((a) => a.action === 'roles.grant_admin_emails')).toHaveLength(2);
  });

  it('rejects a callback whose state was altered, on a Spanish page with a way back', async () => {
    const flow = await signInWithGoogle(server.url, google, { alterCallback: (url) => url.searchParams.set('state', 'forged-state') });
    expect(flow.response.status).toBe(400);
    expect(flow.sessionCookie).toBeUndefined();
    const html = await pageText(flow.response);
    expect(html).toContain(messages.signIn.stateMismatch);
    expect(html).toContain('href="/auth/google?returnTo=');
    expect(html).not.toMatch(/at .*\.ts:\d+|Error:/);
  });

  it('rejects a callback opened in a browser that did not start the sign-in', async () => {
    const flow = await signInWithGoogle(server.url, google, { dropStateCookie: true });
    expect(flow.response.status).toBe(400);
    expect(flow.sessionCookie).toBeUndefined();
    expect(await pageText(flow.response)).toContain(messages.signIn.stateMismatch);
  });

  it('refuses a code used twice', async () => {
    const flow = await signInWithGoogle(server.url, google, { identity: { email: 'replay@gmail.com', name: 'Replay' } });
    expect(flow.response.status).toBe(302);
    const replay = await callbackWith(flow.callbackUrl, flow.stateCookie);
    expect(replay.status).toBe(400);
    expect(replay.headers.getSetCookie().some((c) => c.startsWith('martillo_session='))).toBe(false);
    expect(await pageText(replay)).toContain(messages.signIn.stateMismatch);
  });

  it('refuses an ID token with the wrong nonce', async () => {
    google.tamperNextToken((claims) => {
      claims.nonce = 'not-the-nonce-we-sent';
    });
    const flow = await signInWithGoogle(server.url, google, { identity: { email: 'nonce@gmail.com', name: 'Nonce' } });
    expect(flow.response.status).toBe(400);
    expect(flow.sessionCookie).toBeUndefined();
    expect(await pageText(flow.response)).toContain(messages.signIn.providerFailed);
    const rows = await server.ctx.db.select().from(users).where(eq(users.email, 'nonce@gmail.com'));
    expect(rows).toHaveLength(0);
  });

  it('refuses an account whose email Google has not verified', async () => {
    const flow = await signInWithGoogle(server.url, google, { identity: { email: 'unverified@gmail.com', email_verified: false } });
    expect(flow.response.status).toBe(400);
    expect(await pageText(flow.response)).toContain(messages.signIn.emailMissing);
  });

  it('explains a sign-in the user cancelled at Google', async () => {
    const flow = await signInWithGoogle(server.url, google, {
      alterCallback: (url) => {
        url.searchParams.delete('code');
        url.searchParams.set('error', 'access_denied');
      },
    });
    expect(flow.response.status).toBe(400);
    expect(await pageText(flow.response)).toContain(messages.signIn.providerDenied);
  });

  it.each([
    ['an absolute URL', 'https://evil.example/phish'],
    ['a protocol-relative URL', '//evil.example/phish'],
    ['a backslash trick', '/\\evil.example'],
    ['a javascript: URL', 'javascript:alert(1)'],
    ['an encoded double slash', '/%2F%2Fevil.example'],
  ])('never redirects off-site after sign-in (%s)', async (_label, target) => {
    const flow = await signInWithGoogle(server.url, google, { returnTo: target, identity: { email: 'redirect@gmail.com', name: 'R' } });
    expect(flow.response.status).toBe(302);
    const location = flow.response.headers.get('location') as string;
    expect(location.startsWith('/')).toBe(true);
    expect(location.startsWith('//')).toBe(false);
    expect(new URL(location, server.url).origin).toBe(server.url);
  });

  it('treats an expired session as signed out', async () => {
    const flow = await signInWithGoogle(server.url, google, { identity: { email: 'expira@gmail.com', name: 'Expira' } });
    expect((await me(server.url, flow.sessionCookie)).status).toBe(200);
    const token = (flow.sessionCookie as string).split('=')[1] as string;
    const hash = hashToken(token, server.ctx.config.sessionSecret);
    await server.ctx.db
      .update(authSessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(authSessions.tokenHash, hash));
    // The expiry was moved behind the server's back; the process keeps a session for a few
    // seconds at most (never past its own expiry), so drop what it holds, as a wait would.
    const [session] = await server.ctx.db.select({ userId: authSessions.userId }).from(authSessions).where(eq(authSessions.tokenHash, hash));
    server.ctx.sessions.forgetUser(session?.userId as string);
    const res = await me(server.url, flow.sessionCookie);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ user: null });
    // The same answer as a visitor with no cookie at all: signed out is an answer, not an error.
    const visitor = await me(server.url, undefined);
    expect(visitor.status).toBe(200);
    expect(await visitor.json()).toEqual({ user: null });
  });

  it('signs everyone out when SESSION_SECRET changes', async () => {
    const flow = await signInWithGoogle(server.url, google, { identity: { email: 'rota@gmail.com', name: 'Rota' } });
    const token = (flow.sessionCookie as string).split('=')[1] as string;
    expect(await resolveSession(server.ctx.db, token, server.ctx.config.sessionSecret)).not.toBeNull();
    expect(await resolveSession(server.ctx.db, token, 'a-rotated-secret-a-rotated-secret')).toBeNull();
  });

  it('logs out: the session ends and its cookie is cleared', async () => {
    const flow = await signInWithGoogle(server.url, google, { identity: { email: 'salir@gmail.com', name: 'Salir' } });
    const res = await fetch(`${server.url}/auth/logout`, { method: 'POST', headers: { cookie: flow.sessionCookie as string, origin: server.url } });
    expect(res.status).toBe(204);
    expect(res.headers.getSetCookie().find((c) => c.startsWith('martillo_session='))).toMatch(/Expires=Thu, 01 Jan 1970/);
    expect(await (await me(server.url, flow.sessionCookie)).json()).toEqual({ user: null });
  });

  it('shows a Spanish page, not a stack trace, when the issuer is down', async () => {
    const down = await startTestServer({
      env: { GOOGLE_CLIENT_ID: 'x', GOOGLE_CLIENT_SECRET: 'y' },
      identity: createOidcProvider({ issuer: 'http://127.0.0.1:9/', clientId: 'x', clientSecret: 'y', timeoutSeconds: 2 }),
    });
    try {
      const res = await fetch(`${down.url}/auth/google`, { redirect: 'manual' });
      expect(res.status).toBe(502);
      const html = await res.text();
      expect(html).toContain(messages.signIn.issuerUnavailable);
      expect(html).toContain('lang="es-MX"');
      expect(html).not.toMatch(/ECONNREFUSED|TypeError|at .*:\d+:\d+/);
    } finally {
      await down.close();
    }
  });

  it('sets the Secure flag on cookies when PUBLIC_URL is https', async () => {
    const secure = await startTestServer({
      env: { OIDC_ISSUER: google.issuer, GOOGLE_CLIENT_ID: google.clientId, GOOGLE_CLIENT_SECRET: google.clientSecret, PUBLIC_URL: 'https://martillo.example' },
    });
    try {
      const start = await fetch(`${secure.url}/auth/google`, { redirect: 'manual' });
      const cookie = start.headers.getSetCookie().find((c) => c.startsWith('martillo_oidc=')) ?? '';
      expect(cookie).toMatch(/; Secure/i);
      const authorize = await fetch(start.headers.get('location') as string, { redirect: 'manual' });
      const callback = new URL(authorize.headers.get('location') as string);
      const done = await callbackWith(`${secure.url}${callback.pathname}${callback.search}`, cookie.split(';')[0]);
      expect(done.status).toBe(302);
      expect(done.headers.getSetCookie().find((c) => c.startsWith('martillo_session='))).toMatch(/; Secure/i);
    } finally {
      await secure.close();
    }
  });

  it('has no development sign-in when Google is configured', async () => {
    expect((await fetch(`${server.url}/auth/dev`)).status).toBe(404);
    const post = await fetch(`${server.url}/auth/dev`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'x@y.mx', name: 'X' }),
    });
    expect(post.status).toBe(404);
  });
});
