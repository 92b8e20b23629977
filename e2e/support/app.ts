import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { type JobName, jobs } from '../../src/server/jobs.js';
import { startTestServer, type TestServer } from '../../test/support/server.js';
import { launchBrowser } from './browser.js';

export const root = fileURLToPath(new URL('../..', import.meta.url));

/** The bundle under test; E2E_WEB_DIR gives parallel work its own build folder. */
export const webDir = process.env.E2E_WEB_DIR ? path.resolve(process.env.E2E_WEB_DIR) : path.join(root, 'dist/web');

export type E2eApp = TestServer;

/**
 * Every background job but recording and making replays, which a spec about replays names: ffmpeg
 * copying each test show's camera, then transcoding it once the show ends, would cost the suite
 * minutes for what test/server/features/replays/ checks with a real SFU and ffmpeg.
 */
export const E2E_JOBS: readonly JobName[] = jobs.map((job) => job.name).filter((name) => name !== 'recorder' && name !== 'replays');

/**
 * The whole product (API, web app, Socket.IO, the background jobs of E2E_JOBS unless told) on a free port, on a fresh
 * database, with a DATA_DIR of its own (uploads, recordings, replays' work), removed on close: two files run at once
 * (vitest.e2e.config.ts), and neither may see or delete the other's files.
 */
export async function startE2eApp(env: Record<string, string> = {}, opts: { jobs?: readonly JobName[] | 'all' } = {}): Promise<E2eApp> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'martillo-e2e-'));
  let app: TestServer;
  try {
    app = await startTestServer({ env: { DATA_DIR: dataDir, ...env }, webDir, jobs: opts.jobs ?? E2E_JOBS });
  } catch (err) {
    rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
  return {
    ...app,
    async close() {
      try {
        await app.close();
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
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
