import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/server/app.js';
import { type Config, loadConfig } from '../../src/server/config.js';
import type { AppContext } from '../../src/server/context.js';
import type { JobName } from '../../src/server/jobs.js';
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
  opts: {
    env?: Record<string, string>;
    identity?: OidcIdentityProvider | null;
    listen?: boolean;
    webDir?: string;
    /**
     * The background jobs this server runs (src/server/jobs.ts): none unless the test names them
     * (`jobs: ['closing']`), so no job takes rows a test is driving by hand. The browser tests'
     * app runs them all but recording and making replays (e2e/support/app.ts).
     */
    jobs?: readonly JobName[] | 'all';
  } = {},
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
    jobs: opts.jobs ?? [],
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

/** An instance of several sharing one database, as behind a load balancer. */
export type Instance = Omit<TestServer, 'database' | 'close'>;

/**
 * `count` instances of the app on one database, one secret and Redis (`REDIS_URL`), each listening
 * on a loopback port of its own; `close` closes them and drops the database.
 */
export async function startInstances(count: number, opts: { redisUrl: string; secret: string }) {
  const database = await createTestDatabase();
  const instances: Instance[] = [];
  for (let i = 0; i < count; i++) {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const env = { PUBLIC_URL: url, SESSION_SECRET: opts.secret.padEnd(40, 'x'), REDIS_URL: opts.redisUrl, VIDEO_PROVIDER: 'agora' };
    const built = await buildApp({ config: testConfig(env, port), database, logger: false });
    await built.app.listen({ port, host: '127.0.0.1' });
    instances.push({ ...built, url });
  }
  return {
    instances,
    database,
    async close() {
      await Promise.all(instances.map((i) => i.app.close()));
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

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** One request as `actor` (signed out when null); a change (not GET) carries this site's Origin, as a browser's does. */
export function injectAs(
  server: Pick<TestServer, 'app' | 'url'>,
  actor: { cookie: string } | null,
  method: Method,
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

/**
 * `call(actor, method, url, payload?, headers?)`, `injectAs` bound to a suite's server. The server
 * is read at each call, so the helper can be made at the top of a file whose server starts in beforeAll.
 */
export function caller(server: () => Pick<TestServer, 'app' | 'url'>) {
  return (actor: { cookie: string } | null, method: Method, url: string, payload?: unknown, headers: Record<string, string> = {}) =>
    injectAs(server(), actor, method, url, payload, headers);
}

/** POST /api/auctions/:id/bids as `bidder` (signed out when null), with extra headers such as an Idempotency-Key. */
export function placeBid(
  server: Pick<TestServer, 'app'>,
  bidder: { cookie: string } | null,
  auctionId: string,
  payload: unknown,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return server.app.inject({
    method: 'POST',
    url: `/api/auctions/${auctionId}/bids`,
    headers: { ...(bidder ? { cookie: bidder.cookie } : {}), ...headers },
    payload: payload as Record<string, unknown>,
  });
}

/** `bid(bidder, auctionId, payload, headers?)`, `placeBid` bound to a suite's server (read at each call, as `caller`). */
export function bidCaller(server: () => Pick<TestServer, 'app'>) {
  return (who: { cookie: string } | null, auctionId: string, payload: unknown, headers: Record<string, string> = {}) =>
    placeBid(server(), who, auctionId, payload, headers);
}
