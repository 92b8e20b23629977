import { defineConfig } from 'vitest/config';

/** The browser suite: Debian's Chromium through playwright-core, two files at a time (2 cores). */
export default defineConfig({
  test: {
    name: 'browser',
    include: ['e2e/**/*.spec.ts'],
    // The video and several-instances specs run in network namespaces of their own (vitest.video.config.ts, vitest.instances.config.ts, scripts/test.ts).
    exclude: ['e2e/video/**', 'e2e/instances/**'],
    globalSetup: ['e2e/support/global-setup.ts', 'test/support/template-databases.ts'],
    // Two files at a time even on 2 cores: a file mostly waits (on Chromium, its server, its timers), so one
    // at a time left the machine half idle (about 18 min; two at a time 11 min, every test passing). Every file has
    // its own app on a free port, its own database, DATA_DIR (e2e/support/app.ts) and browser; the web bundle and
    // the PGlite template are made once, above.
    fileParallelism: true,
    maxWorkers: 2,
    // The files share the worker's modules (the server, Playwright) instead of importing them again each,
    // as the server suites do (vitest.config.ts); every file still starts its own app and browser.
    isolate: false,
    // Twice the longest ordinary test (live-phone's one-tap bidding, 55 s) on a CI machine that ran every suite
    // at once at a load average of 9 to 14: a passing test is no slower for it, a stuck one is still caught.
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
});
