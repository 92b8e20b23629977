import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userProfiles, users } from '../../../../src/server/db/schema.js';
import { messages } from '../../../../src/server/messages.js';
import { me } from '../../../support/google-flow.js';
import { cookieFrom, startTestServer, type TestServer } from '../../../support/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ env: { ADMIN_EMAILS: 'jefa@martillo.mx' } });
});
afterAll(async () => server?.close());

function devSignIn(fields: Record<string, string>) {
  return fetch(`${server.url}/auth/dev`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.url },
    body: new URLSearchParams(fields).toString(),
  });
}

describe('development sign-in', () => {
  it('is where the sign-in button leads when no Google client is configured', async () => {
    const res = await fetch(`${server.url}/auth/google?returnTo=/admin/livehub`, { redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/auth/dev?returnTo=%2Fadmin%2Flivehub');
  });

  it('shows a Spanish form clearly marked as development mode', async () => {
    const res = await fetch(`${server.url}/auth/dev?returnTo=/admin`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain(messages.signIn.devTitle);
    expect(html).toContain(messages.signIn.devBanner);
    expect(html).toContain(messages.signIn.devFirstAdmin);
    expect(html).toContain('name="email"');
    expect(html).toContain('name="name"');
  });

  it('makes the first account of an empty database an admin, and later ones buyers', async () => {
    const [first, second] = await Promise.all([
      devSignIn({ email: 'Primera@Ejemplo.mx', name: 'Primera Persona', returnTo: '/admin' }),
      devSignIn({ email: 'segunda@ejemplo.mx', name: 'Segunda Persona', returnTo: '/admin' }),
    ]);
    expect(first?.status).toBe(303);
    expect(second?.status).toBe(303);
    const profiles = await server.ctx.db
      .select({ email: users.email, roles: userProfiles.roles })
      .from(users)
      .innerJoin(userProfiles, eq(userProfiles.userId, users.id));
    // Whichever committed first is the admin; exactly one is.
    expect(profiles.filter((p) => p.roles.includes('admin'))).toHaveLength(1);
    expect(profiles.filter((p) => p.roles.includes('buyer'))).toHaveLength(2);

    const third = await devSignIn({ email: 'tercera@ejemplo.mx', name: 'Tercera' });
    const body = await (await me(server.url, cookieFrom(third.headers.getSetCookie(), 'martillo_session'))).json();
    expect(body.roles).toEqual(['buyer']);
  });

  it('signs an existing account back in and keeps its roles', async () => {
    const res = await devSignIn({ email: 'primera@ejemplo.mx', name: 'Otro Nombre' });
    const cookie = cookieFrom(res.headers.getSetCookie(), 'martillo_session');
    const body = await (await me(server.url, cookie)).json();
    expect(body.user.email).toBe('primera@ejemplo.mx');
    expect(body.profile.displayName).toBe('Primera Persona');
  });

  it('grants admin to ADMIN_EMAILS in development too', async () => {
    const res = await devSignIn({ email: 'jefa@martillo.mx', name: 'La Jefa' });
    const body = await (await me(server.url, cookieFrom(res.headers.getSetCookie(), 'martillo_session'))).json();
    expect(body.roles).toContain('admin');
  });

  it('re-shows the form with Spanish errors and keeps what was typed', async () => {
    const res = await devSignIn({ email: 'no-es-correo', name: '  ', returnTo: '/admin' });
    expect(res.status).toBe(400);
    expect(cookieFrom(res.headers.getSetCookie(), 'martillo_session')).toBeUndefined();
    const html = await res.text();
    expect(html).toContain(messages.fields.email);
    expect(html).toContain(messages.fields.name);
    expect(html).toContain('value="no-es-correo"');
  });

  it('answers JSON to a JSON request, with field errors', async () => {
    const bad = await fetch(`${server.url}/auth/dev`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 42 }) });
    expect(bad.status).toBe(400);
    const body = await bad.json();
    expect(body.error.code).toBe('VALIDATION');
    expect(Object.keys(body.error.fields)).toEqual(expect.arrayContaining(['email', 'name']));
    const good = await fetch(`${server.url}/auth/dev`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'json@ejemplo.mx', name: 'Json', returnTo: '//evil.example' }),
    });
    expect(good.status).toBe(200);
    expect((await good.json()).returnTo).toBe('/admin');
  });

  it('escapes what it echoes back', async () => {
    const res = await devSignIn({ email: '"><script>alert(1)</script>', name: 'x' });
    const html = await res.text();
    expect(html).not.toContain('<script>alert(1)</script>');
    expect(html).toContain('&lt;script&gt;');
  });

  it('refuses a sign-in posted from another site', async () => {
    const res = await fetch(`${server.url}/auth/dev`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' },
      body: 'email=a%40b.mx&name=A',
    });
    expect(res.status).toBe(403);
    expect((await res.json()).error.message).toBe(messages.errors.badOrigin);
  });
});
