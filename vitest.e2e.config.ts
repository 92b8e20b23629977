import { defineConfig } from 'vitest/config';

/** The browser suite: Debian's Chromium through playwright-core, one file at a time (2 cores). */
export default defineConfig({
  test: {
    name: 'browser',
    include: ['e2e/**/*.spec.ts'],
    // The video specs run in their own network namespace (vitest.video.config.ts, scripts/test.ts).
    exclude: ['e2e/video/**'],
    globalSetup: ['e2e/support/global-setup.ts'],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 180_000,
  },
});
