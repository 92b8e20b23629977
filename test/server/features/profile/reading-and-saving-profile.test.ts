import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../../../src/server/db/schema.js';
import { messages } from '../../../../src/server/messages.js';
import { cookieFrom, startTestServer, type TestServer } from '../../../support/server.js';

let server: TestServer;
let cookie: string;
beforeAll(async () => {
  server = await startTestServer();
  const res = await server.app.inject({ method: 'POST', url: '/auth/dev', payload: { email: 'perfil@ejemplo.mx', name: 'Rosa' } });
  cookie = cookieFrom(res.headers['set-cookie'], 'martillo_session') as string;
});
afterAll(async () => server?.close());

const valid = { lastName: 'Hernández', companyName: 'Subastas Rosa', whatsappCountryCode: '+52', whatsappLocal: '33 1234 5678', whatsappConsentGiven: true };
const put = (payload: unknown, headers: Record<string, string> = {}) =>
  server.app.inject({ method: 'PUT', url: '/api/profile', headers: { cookie, ...headers }, payload: payload as object });

describe('reading and saving one’s own profile', () => {
  it('needs a signed-in user', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/api/profile' });
    expect(res.statusCode).toBe(401);
    expect(res.json().error.code).toBe('UNAUTHENTICATED');
    expect((await server.app.inject({ method: 'PUT', url: '/api/profile', payload: valid })).statusCode).toBe(401);
  });

  it('starts incomplete: /api/me asks for the profile', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/api/me', headers: { cookie } });
    expect(res.json().profileComplete).toBe(false);
    const profile = (await server.app.inject({ method: 'GET', url: '/api/profile', headers: { cookie } })).json();
    expect(profile).toMatchObject({ firstName: 'Rosa', email: 'perfil@ejemplo.mx', whatsapp: null, whatsappConsentGiven: false });
  });

  it.each([
    ['a missing last name', { ...valid, lastName: '   ' }, 'lastName', messages.fields.lastNameRequired],
    ['a short Mexican number', { ...valid, whatsappLocal: '33 1234' }, 'whatsappLocal', messages.fields.whatsappInvalid],
    ['letters in the number', { ...valid, whatsappLocal: 'treinta y tres' }, 'whatsappLocal', messages.fields.whatsappInvalid],
    ['a missing number', { ...valid, whatsappLocal: '' }, 'whatsappLocal', messages.fields.whatsappRequired],
    ['no consent', { ...valid, whatsappConsentGiven: false }, 'whatsappConsentGiven', messages.fields.consentRequired],
    ['an unknown country code', { ...valid, whatsappCountryCode: '+999' }, 'whatsappLocal', messages.fields.whatsappInvalid],
    ['a malformed country code', { ...valid, whatsappCountryCode: 'MX' }, 'whatsappCountryCode', messages.fields.countryCodeInvalid],
    ['a number as last name', { ...valid, lastName: 42 }, 'lastName', messages.fields.lastNameRequired],
    ['a huge business name', { ...valid, companyName: 'x'.repeat(500) }, 'companyName', messages.fields.tooLong],
  ])('rejects %s with a Spanish field error', async (_label, payload, field, message) => {
    const res = await put(payload);
    expect(res.statusCode).toBe(400);
    const { error } = res.json();
    expect(error.code).toBe('VALIDATION');
    expect(error.message).toBe(messages.errors.validation);
    expect(error.fields[field]).toBe(message);
  });

  it('reports every bad field at once', async () => {
    const res = await put({ lastName: '', whatsappCountryCode: '+52', whatsappLocal: '12', whatsappConsentGiven: false });
    expect(Object.keys(res.json().error.fields).sort()).toEqual(['lastName', 'whatsappConsentGiven', 'whatsappLocal']);
  });

  it('rejects a body that is not JSON, in Spanish', async () => {
    const res = await put('{"lastName": ', { 'content-type': 'application/json' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe(messages.errors.invalidJson);
  });

  it('saves a valid profile, normalising the number, and records consent once', async () => {
    const res = await put(valid);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      lastName: 'Hernández',
      companyName: 'Subastas Rosa',
      whatsapp: '+523312345678',
      whatsappCountryCode: '+52',
      whatsappLocal: '3312345678',
      whatsappConsentGiven: true,
      firstName: 'Rosa',
    });
    const meRes = await server.app.inject({ method: 'GET', url: '/api/me', headers: { cookie } });
    expect(meRes.json()).toMatchObject({ profileComplete: true, companyName: 'Subastas Rosa' });
    await put({ ...valid, whatsappCountryCode: '1', whatsappLocal: '(202) 555-0123', companyName: '' });
    const consents = await server.ctx.db.select().from(auditLog).where(eq(auditLog.action, 'profile.whatsapp_consent'));
    expect(consents).toHaveLength(1);
    const after = (await server.app.inject({ method: 'GET', url: '/api/profile', headers: { cookie } })).json();
    expect(after).toMatchObject({ whatsapp: '+12025550123', whatsappCountryCode: '+1', companyName: null });
  });

  it('does not let a client write fields the profile form does not own', async () => {
    const before = (await server.app.inject({ method: 'GET', url: '/api/me', headers: { cookie } })).json();
    const res = await put({ ...valid, roles: ['admin', 'seller'], companyId: 'otra', email: 'x@y.mx' });
    expect(res.statusCode).toBe(200);
    const body = (await server.app.inject({ method: 'GET', url: '/api/me', headers: { cookie } })).json();
    expect(body.roles).toEqual(before.roles);
    expect(body.roles).not.toContain('seller');
    expect(body.profile.companyId).toBeNull();
    expect(body.user.email).toBe('perfil@ejemplo.mx');
  });
});
