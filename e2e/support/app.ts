import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app.js';
import type { AppContext } from '../../src/server/context.js';
import { createTestDatabase, type TestDatabase } from '../../test/support/db.js';
import { testConfig } from '../../test/support/server.js';

export const root = fileURLToPath(new URL('../..', import.meta.url));

export interface E2eApp {
  app: FastifyInstance;
  ctx: AppContext;
  url: string;
  close(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });
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
