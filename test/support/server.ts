import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/server/app.js';
import { type Config, loadConfig } from '../../src/server/config.js';
import type { AppContext } from '../../src/server/context.js';
import type { OidcIdentityProvider } from '../../src/server/providers/identity/types.js';
import { createTestDatabase, type TestDatabase } from './db.js';
import { freePort } from './net.js';

export interface TestServer {
  app: FastifyInstance;
  ctx: AppContext;
  database: TestDatabase;
  /** http://127.0.0.1:<port> once listening. */
  url: string;
  close(): Promise<void>;
}

/** The config of a test: defaults, a per-run secret, and whatever the test overrides. */
export function testConfig(env: Record<string, string> = {}, port = 0): Config {
  return loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: '/tmp/martillo-test', PORT: String(port), ...env }, { persistSecret: false });
}

/** Builds the app on a fresh database and listens on a free loopback port. */
export async function startTestServer(
  opts: { env?: Record<string, string>; identity?: OidcIdentityProvider | null; listen?: boolean; webDir?: string } = {},
): Promise<TestServer> {
  const database = await createTestDatabase();
  const probe = await freePort();
  const url = `http://127.0.0.1:${probe}`;
  const config = testConfig({ PUBLIC_URL: url, ...opts.env }, probe);
  const { app, ctx } = await buildApp({
    config,
    database,
    logger: false,
    ...(opts.identity !== undefined ? { identity: opts.identity } : {}),
    ...(opts.webDir ? { webDir: opts.webDir } : {}),
  });
  if (opts.listen !== false) await app.listen({ port: probe, host: '127.0.0.1' });
  return {
    app,
    ctx,
    database,
    url,
    async close() {
      await app.close();
      await database.destroy();
    },
  };
}

/** The `name=value` pair of a Set-Cookie header, ready for a Cookie header. */
export function cookieFrom(setCookie: string | string[] | undefined, name: string): string | undefined {
  const all = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  const hit = all.find((c) => c.startsWith(`${name}=`));
  return hit?.split(';')[0];
}

/** One request as `actor` (signed out when null); a change (not GET) carries this site's Origin, as a browser's does. */
export function injectAs(
  server: Pick<TestServer, 'app' | 'url'>,
  actor: { cookie: string } | null,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: unknown,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return server.app.inject({
    method,
    url,
    headers: { ...(actor ? { cookie: actor.cookie } : {}), ...(method !== 'GET' ? { origin: server.url } : {}), ...headers },
    ...(payload !== undefined ? { payload: payload as Record<string, unknown> } : {}),
  });
}
