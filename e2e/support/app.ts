import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import type { AppContext } from '../../src/server/context.js';
import { createTestDatabase, type TestDatabase } from '../../test/support/db.js';
import { freePort } from '../../test/support/net.js';
import { testConfig } from '../../test/support/server.js';
import { launchBrowser } from './browser.js';

export const root = fileURLToPath(new URL('../..', import.meta.url));

export interface E2eApp {
  app: FastifyInstance;
  ctx: AppContext;
  url: string;
  close(): Promise<void>;
}

/** The whole product (API, web app, Socket.IO) on a free port, on a fresh database. */
export async function startE2eApp(env: Record<string, string> = {}): Promise<E2eApp> {
  const database: TestDatabase = await createTestDatabase();
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const config = testConfig({ PUBLIC_URL: url, ...env }, port);
  const { app, ctx } = await buildApp({ config, database, logger: false, webDir: path.join(root, 'dist/web') });
  await app.listen({ port, host: '127.0.0.1' });
  return {
    app,
    ctx,
    url,
    async close() {
      await app.close();
      await database.destroy();
    },
  };
}

/** The usual spec setup: the product on a fresh database and a browser, both closed after the file. */
export function setupAppAndBrowser(env: Record<string, string> = {}): { app: E2eApp; browser: Browser } {
  const handles = {} as { app: E2eApp; browser: Browser };
  beforeAll(async () => {
    handles.app = await startE2eApp(env);
    handles.browser = await launchBrowser();
  });
  afterAll(async () => {
    await handles.browser?.close();
    await handles.app?.close();
  });
  return handles;
}
