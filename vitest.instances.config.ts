import { defineConfig } from 'vitest/config';

/**
 * Several instances: the built release twice in production mode behind HAProxy, on PostgreSQL and
 * Redis, with Janus and Chromium, inside the video suite's loopback-only network namespace
 * (scripts/video-netns.ts), which `npm test` makes for it.
 */
export default defineConfig({
  test: {
    name: 'instances',
    include: ['e2e/instances/**/*.spec.ts'],
    globalSetup: ['e2e/support/global-setup.ts'],
    fileParallelism: false,
    testTimeout: 240_000,
    hookTimeout: 240_000,
  },
});
