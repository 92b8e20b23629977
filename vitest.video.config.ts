import { defineConfig } from 'vitest/config';

/**
 * The video suite: Chromium with a fake camera, the server and the SFU (or Janus), all
 * inside a loopback-only network namespace that `npm test` makes for it (scripts/video-netns.ts),
 * so no media leaves 127.0.0.0/8. One file at a time: each runs a seller and two viewers.
 */
export default defineConfig({
  test: {
    name: 'video',
    include: ['e2e/video/**/*.spec.ts'],
    globalSetup: ['e2e/support/global-setup.ts', 'test/support/template-databases.ts'],
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
});
