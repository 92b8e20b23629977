import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../../../../src/server/messages.js';
import { startTestServer, type TestServer } from '../../../../support/server.js';

/**
 * A payment link that leads nowhere (cut short in a message, copied by hand, mangled) answers that
 * the payment does not exist (404, in Spanish), as a payment that never existed does: never a
 * validation error the buyer's page would read as a failure to load.
 */

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ listen: false });
}, 60_000);
afterAll(async () => server?.close());

const origin = () => ({ origin: server.ctx.config.publicUrl.origin });

describe('a wrong payment link', () => {
  it('answers 404 "Este pago no existe" for an id cut short, mistyped or with stray characters, as for an unknown one', async () => {
    const id = randomUUID();
    for (const wrong of [id.slice(0, 20), `${id}x`, 'pago', encodeURIComponent(`${id}\u200b`), id]) {
      const read = await server.app.inject({ method: 'GET', url: `/api/pay/${wrong}` });
      expect(read.statusCode, wrong).toBe(404);
      expect(read.json().error.message).toBe(messages.payments.checkoutNotFound);
      const pay = await server.app.inject({ method: 'POST', url: `/api/pay/${wrong}`, headers: origin(), payload: { outcome: 'approve' } });
      expect(pay.statusCode, wrong).toBe(404);
    }
  });
});
