import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Company } from '../../../../../src/domain/companies.js';
import { auditLog } from '../../../../../src/server/db/schema.js';
import { messages } from '../../../../../src/server/messages.js';
import { type Actor, buildActor } from '../../../../support/actors.js';
import { caller, startTestServer, type TestServer } from '../../../../support/server.js';

/** A company's payment deadline and strike limit on PUT /api/companies/{id}: defaults, bounds, who may change them. */

let server: TestServer;
let companyAdmin: Actor;
let otherAdmin: Actor;
const NORTE = 'plazo-norte';
const call = caller(() => server);

beforeAll(async () => {
  server = await startTestServer();
  companyAdmin = await buildActor(server, { email: 'jefa@plazo.mx', name: 'Jefa Plazo', roles: ['admin'], companyId: NORTE });
  otherAdmin = await buildActor(server, { email: 'jefe@otra.mx', name: 'Jefe Otra', roles: ['admin'], companyId: 'plazo-sur' });
}, 60_000);
afterAll(async () => server?.close());

const get = async (): Promise<Company> => (await call(companyAdmin, 'GET', `/api/companies/${NORTE}`)).json();

describe('company payment settings', () => {
  it('answers the defaults: 72 hours to pay, blocked at 2 expired bills', async () => {
    const company = await get();
    expect(company.paymentDeadlineHours).toBe(72);
    expect(company.strikeLimit).toBe(2);
  });

  it('saves both settings, and a body without them keeps them', async () => {
    const saved = await call(companyAdmin, 'PUT', `/api/companies/${NORTE}`, { name: 'Plazo Norte', paymentDeadlineHours: 48, strikeLimit: 3 });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ paymentDeadlineHours: 48, strikeLimit: 3 });
    const renamed = await call(companyAdmin, 'PUT', `/api/companies/${NORTE}`, { name: 'Plazo Norte SA' });
    expect(renamed.json()).toMatchObject({ name: 'Plazo Norte SA', paymentDeadlineHours: 48, strikeLimit: 3 });
    expect(await get()).toMatchObject({ paymentDeadlineHours: 48, strikeLimit: 3 });
    const audits = await server.ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'company.update'), eq(auditLog.entityId, NORTE)));
    expect(audits.some((a) => JSON.stringify(a.after).includes('"paymentDeadlineHours":48'))).toBe(true);
  });

  it.each([
    [{ paymentDeadlineHours: 0 }, 'paymentDeadlineHours', messages.reminders.companyFields.paymentDeadlineInvalid],
    [{ paymentDeadlineHours: 24 * 365 * 10 }, 'paymentDeadlineHours', messages.reminders.companyFields.paymentDeadlineInvalid],
    [{ paymentDeadlineHours: 1.5 }, 'paymentDeadlineHours', messages.reminders.companyFields.paymentDeadlineInvalid],
    [{ paymentDeadlineHours: '72' }, 'paymentDeadlineHours', messages.reminders.companyFields.paymentDeadlineInvalid],
    [{ strikeLimit: 0 }, 'strikeLimit', messages.reminders.companyFields.strikeLimitInvalid],
    [{ strikeLimit: 11 }, 'strikeLimit', messages.reminders.companyFields.strikeLimitInvalid],
  ])('refuses %j with a Spanish message and changes nothing', async (extra, field, message) => {
    const before = await get();
    const res = await call(companyAdmin, 'PUT', `/api/companies/${NORTE}`, { name: before.name, ...extra });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields[field]).toBe(message);
    expect(await get()).toEqual(before);
  });

  it('accepts the bounds: 1 and 720 hours, 1 and 10 bills', async () => {
    for (const body of [
      { paymentDeadlineHours: 1, strikeLimit: 1 },
      { paymentDeadlineHours: 720, strikeLimit: 10 },
    ]) {
      const res = await call(companyAdmin, 'PUT', `/api/companies/${NORTE}`, { name: 'Plazo Norte', ...body });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject(body);
    }
  });

  it("another company's admin cannot change them (not found)", async () => {
    const before = await get();
    const res = await call(otherAdmin, 'PUT', `/api/companies/${NORTE}`, { name: 'Mía', paymentDeadlineHours: 5 });
    expect(res.statusCode).toBe(404);
    expect(await get()).toEqual(before);
  });
});
