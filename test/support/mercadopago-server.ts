import type { JobName } from '../../src/server/jobs.js';
import { type FakeMercadoPago, startFakeMercadoPago } from './fake-mercadopago.js';
import { startTestServer, type TestServer } from './server.js';

/** The webhook secret the server and the tests sign Mercado Pago's notifications with. */
export const WEBHOOK_SECRET = 'mp-webhook-secret-for-tests';

/**
 * A local fake Mercado Pago, and a test server paying through it: the platform's token, the OAuth
 * client sellers connect with, the webhook secret. `env` adds to (or overrides) that setup;
 * `jobs` names the background jobs it runs (none by default, as `startTestServer`).
 * Close both after the file: `await server.close(); await fake.close();`.
 */
export async function startWithFakeMercadoPago(
  env: Record<string, string> = {},
  opts: { jobs?: readonly JobName[] } = {},
): Promise<{ fake: FakeMercadoPago; server: TestServer }> {
  const fake = await startFakeMercadoPago({ platformToken: 'APP_USR-platform-token', clientId: '123456', clientSecret: 'client-secret' });
  const server = await startTestServer({
    env: {
      PAYMENTS_PROVIDER: 'mercadopago',
      MP_ACCESS_TOKEN: fake.platformToken,
      MP_CLIENT_ID: fake.clientId,
      MP_CLIENT_SECRET: fake.clientSecret,
      MP_WEBHOOK_SECRET: WEBHOOK_SECRET,
      MP_API_URL: fake.url,
      MP_AUTH_URL: fake.url,
      ...env,
    },
    ...opts,
  });
  return { fake, server };
}
