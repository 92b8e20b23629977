import { defineConfig } from 'vitest/config';

/** The browser suite: Debian's Chromium through playwright-core, one file at a time (2 cores). */
export default defineConfig({
  test: {
    name: 'browser',
    include: ['e2e/**/*.spec.ts'],
    // The video and several-instances specs run in network namespaces of their own (vitest.video.config.ts, vitest.instances.config.ts, scripts/test.ts).
    exclude: ['e2e/video/**', 'e2e/instances/**'],
    globalSetup: ['e2e/support/global-setup.ts', 'test/support/template-databases.ts'],
    fileParallelism: false,
    // The files share the worker's modules (the server, Playwright) instead of importing them again each,
    // as the server suites do (vitest.config.ts); every file still starts its own app and browser.
    isolate: false,
    testTimeout: 60_000,
    hookTimeout: 180_000,
  },
});
