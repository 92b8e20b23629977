import { and, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Company } from '../../../../src/domain/companies.js';
import type { LiveSessionDetail } from '../../../../src/domain/live.js';
import { auditLog, liveSessions } from '../../../../src/server/db/schema.js';
import { messages } from '../../../../src/server/messages.js';
import { type Actor, buildActor } from '../../../support/actors.js';
import { caller, startTestServer, type TestServer } from '../../../support/server.js';

/**
 * 'Grabar el show': each show says whether it is recorded for its replay (`recording`, on create
 * and PUT /api/live-sessions/{id}), starting as its company's choice (`recordShows` on
 * PUT /api/companies/{id}, on unless the company's admins turn it off).
 */

const GRABA = 'graba-todo';
const NO_GRABA = 'sin-grabar';
let server: TestServer;
let seller: Actor;
let admin: Actor;
let quietSeller: Actor;
let quietAdmin: Actor;
const call = caller(() => server);

beforeAll(async () => {
  server = await startTestServer({ listen: false });
  seller = await buildActor(server, { email: 'vende@graba.mx', name: 'Gala Grabadora', roles: ['seller'], companyId: GRABA });
  admin = await buildActor(server, { email: 'jefa@graba.mx', name: 'Gloria Jefa', roles: ['admin'], companyId: GRABA });
  quietSeller = await buildActor(server, { email: 'vende@sin.mx', name: 'Silvia Sin', roles: ['seller'], companyId: NO_GRABA });
  quietAdmin = await buildActor(server, { email: 'jefe@sin.mx', name: 'Simón Jefe', roles: ['admin'], companyId: NO_GRABA });
}, 60_000);
afterAll(async () => server?.close());

async function ok<T>(res: LightMyRequestResponse, status = 200): Promise<T> {
  expect(res.statusCode, res.body).toBe(status);
  return res.json() as T;
}

const create = (who: Actor, extra: object = {}) =>
  call(who, 'POST', '/api/live-sessions', { title: 'Relojes grabados', scheduledAt: Date.UTC(2030, 0, 2, 18), ...extra });
const stored = async (id: string) => (await server.ctx.db.select().from(liveSessions).where(eq(liveSessions.id, id)))[0];

describe('a show’s recording setting', () => {
  it('records a new show unless its company turned recording off, and a show may choose otherwise when it is created', async () => {
    expect((await ok<Company>(await call(admin, 'GET', `/api/companies/${GRABA}`))).recordShows).toBe(true);
    const recorded = await ok<LiveSessionDetail>(await create(seller), 201);
    expect(recorded.session.recording).toBe(true);

    const off = await ok<Company>(await call(quietAdmin, 'PUT', `/api/companies/${NO_GRABA}`, { name: 'Sin Grabar', recordShows: false }));
    expect(off.recordShows).toBe(false);
    // A seller, who may not read the company's settings, sees where 'Grabar el show' starts in their own answer.
    expect((await call(quietSeller, 'GET', `/api/companies/${NO_GRABA}`)).statusCode).toBe(404);
    expect((await ok<{ companyRecordsShows: boolean }>(await call(quietSeller, 'GET', '/api/me'))).companyRecordsShows).toBe(false);
    expect((await ok<{ companyRecordsShows: boolean }>(await call(seller, 'GET', '/api/me'))).companyRecordsShows).toBe(true);
    const unrecorded = await ok<LiveSessionDetail>(await create(quietSeller), 201);
    expect(unrecorded.session.recording).toBe(false);
    const chosen = await ok<LiveSessionDetail>(await create(quietSeller, { recording: true }), 201);
    expect(chosen.session.recording).toBe(true);
    expect((await stored(chosen.session.id))?.recording).toBe(true);
  });

  it('turns a show’s recording off and on again, audited with what it was and what it became', async () => {
    const { session } = await ok<LiveSessionDetail>(await create(seller), 201);
    const off = await ok<LiveSessionDetail>(await call(seller, 'PUT', `/api/live-sessions/${session.id}`, { recording: false }));
    expect(off.session.recording).toBe(false);
    expect(off.session.version).toBeGreaterThan(session.version);
    const on = await ok<LiveSessionDetail>(await call(seller, 'PUT', `/api/live-sessions/${session.id}`, { recording: true }));
    expect(on.session.recording).toBe(true);
    const audits = await server.ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'live_session.update'), eq(auditLog.entityId, session.id)));
    expect(audits.map((a) => [a.before, a.after])).toEqual(
      expect.arrayContaining([
        [{ recording: true }, { recording: false }],
        [{ recording: false }, { recording: true }],
      ]),
    );
  });

  it('tells anyone reading the show whether it is recorded', async () => {
    const { session } = await ok<LiveSessionDetail>(await create(seller, { recording: false }), 201);
    const read = await ok<LiveSessionDetail>(await server.app.inject({ method: 'GET', url: `/api/live-sessions/${session.id}` }));
    expect(read.session.recording).toBe(false);
  });

  it.each([['sí'], [1], [null]])('refuses recording %j with a Spanish message and changes nothing', async (value) => {
    const { session } = await ok<LiveSessionDetail>(await create(seller), 201);
    const put = await call(seller, 'PUT', `/api/live-sessions/${session.id}`, { recording: value });
    expect(put.statusCode).toBe(400);
    expect(put.json().error.fields.recording).toBe(messages.live.fields.recordingInvalid);
    expect((await stored(session.id))?.recording).toBe(true);
    const post = await create(seller, { recording: value });
    expect(post.statusCode).toBe(400);
    expect(post.json().error.fields.recording).toBe(messages.live.fields.recordingInvalid);
  });

  it('keeps the company’s choice when a body leaves it out, audits a change, and refuses a value that is not yes or no', async () => {
    await ok<Company>(await call(admin, 'PUT', `/api/companies/${GRABA}`, { name: 'Graba Todo', recordShows: false }));
    const renamed = await ok<Company>(await call(admin, 'PUT', `/api/companies/${GRABA}`, { name: 'Graba Todo SA' }));
    expect(renamed.recordShows).toBe(false);
    const audits = await server.ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'company.update'), eq(auditLog.entityId, GRABA)));
    expect(audits.some((a) => JSON.stringify(a.before).includes('"recordShows":true') && JSON.stringify(a.after).includes('"recordShows":false'))).toBe(true);
    const bad = await call(admin, 'PUT', `/api/companies/${GRABA}`, { name: 'Graba Todo SA', recordShows: 'no' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields.recordShows).toBe(messages.reminders.companyFields.recordShowsInvalid);
    await ok<Company>(await call(admin, 'PUT', `/api/companies/${GRABA}`, { name: 'Graba Todo', recordShows: true }));
  });

  it('lets only the company’s admins change its choice: its sellers do not see the company’s record (404)', async () => {
    const res = await call(seller, 'PUT', `/api/companies/${GRABA}`, { name: 'Graba Todo', recordShows: false });
    expect(res.statusCode).toBe(404);
    expect((await ok<Company>(await call(admin, 'GET', `/api/companies/${GRABA}`))).recordShows).toBe(true);
  });
});
