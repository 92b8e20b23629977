import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { catalogueParts } from './vite.config';

const SFU_ROBUSTNESS = [
  'test/server/providers/video/offer-*.test.ts',
  'test/server/providers/video/remote-candidate*.test.ts',
  'test/server/providers/video/sfu-*.test.ts',
  'test/server/providers/video/unconnected-slot.test.ts',
  'test/server/providers/video/viewer-slot*.test.ts',
];

/**
 * Server suites that open no database at all (pure logic, a provider against its fake or a real
 * Janus or HAProxy, parsing): the engine cannot change their result, so they run on PGlite's
 * project only. A file that starts using a database must leave this list.
 */
const NO_DATABASE = [
  'test/server/{audit-actions,bulk-pacer,config,jobs,pass-loop}.test.ts',
  'test/server/crypto/secret-box.test.ts',
  'test/server/deploy/haproxy-*.test.ts',
  'test/server/features/auth/safe-return-to.test.ts',
  'test/server/features/chat/policies.test.ts',
  'test/server/features/payments/show-summary/csv-format.test.ts',
  'test/server/features/push/addresses.test.ts',
  'test/server/policies/company-scope.test.ts',
  'test/server/providers/payments/mercadopago.test.ts',
  'test/server/providers/video/{janus,janus-edges,janus-edges-harness,keyframe-group-replay,sdp-rewriting}.test.ts',
  'test/server/realtime/{chat-batcher,client-address,error-summary}.test.ts',
];

const serverSuite = (name: string, engine: 'pglite' | 'postgresql') => ({
  extends: true as const,
  test: {
    name,
    include: ['test/server/**/*.test.ts'],
    exclude: [
      // The Redis suites need a Redis server; .ci/run provides one.
      ...(process.env.TEST_REDIS_URL ? [] : ['test/server/realtime/redis/**']),
      // The SFU's robustness suites (hostile offers, faults and restarts, candidates, viewer slots) test the video
      // process, not the database, and are among the slowest: once is enough. So are the files that open no database.
      ...(engine === 'postgresql' ? [...SFU_ROBUSTNESS, ...NO_DATABASE] : []),
      // Backups of the embedded database open PGlite folders of their own; PostgreSQL has pg_dump. The PGlite
      // thread's own suite drives PGlite directly, whatever the project's engine.
      ...(engine === 'postgresql' ? ['test/server/db/embedded-backup.test.ts', 'test/server/db/pglite-thread.test.ts'] : []),
      // Building the web app in a child process uses no database.
      ...(engine === 'postgresql' ? ['test/server/web/building-the-web-app-apart.test.ts'] : []),
      // Replays' media (ffmpeg making the MP4, its poster and the clips) and the storage of large files use no database either.
      ...(engine === 'postgresql'
        ? [
            'test/server/features/replays/media/**',
            'test/server/features/replays/timeline.test.ts',
            'test/server/providers/storage/{local,s3,video-keys}.test.ts',
            // The synthetic publisher's real media (ffmpeg, then parsed) and the recorder's ports use no database.
            'test/server/providers/video/synthetic-media.test.ts',
            'test/server/features/replays/udp-ports.test.ts',
          ]
        : []),
    ],
    // A spare PGlite database opens in the background for the next file (test/support/db.ts).
    env: { TEST_ENGINE: engine, ...(engine === 'pglite' ? { MARTILLO_TEST_OPEN_SPARE: '1' } : {}) },
    // One migrated database for the run, copied by every file (test/support/template-databases.ts).
    globalSetup: ['test/support/template-databases.ts'],
    // The files share their worker's modules instead of importing the whole server again each (810 s
    // against 559 s for the PGlite run on the 2-core machine). Each file builds its own app on its
    // own database; nothing the server keeps between requests lives at module level, so a file
    // cannot see another's data (the suite passes with its files shuffled).
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

/** Unit and integration suites. The server suite runs on PGlite, and again on PostgreSQL when TEST_DATABASE_URL is set. */
export default defineConfig({
  // The web code imports its catalogue in parts (src/web/i18n/parts.ts), as the build does.
  plugins: [catalogueParts()],
  test: {
    // Vitest's default is one worker fewer than the cores: a single one on the 2-core machine, where
    // files then ran one at a time and the machine was often idle (the PGlite suite alone kept it 58 %
    // busy). Two there took 563 s instead of 805 s for the whole of this config, every file passing.
    // The browser suite runs two files at a time as well (vitest.e2e.config.ts).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      { extends: true, test: { name: 'domain', include: ['test/domain/**/*.test.ts'] } },
      { extends: true, test: { name: 'web', include: ['test/web/**/*.test.ts'] } },
      { extends: true, test: { name: 'scripts', include: ['test/scripts/**/*.test.ts'] } },
      serverSuite('server:pglite', 'pglite'),
      ...(process.env.TEST_DATABASE_URL ? [serverSuite('server:postgresql', 'postgresql')] : []),
      // Every bench at a tiny size (no timing asserted), so a schema change cannot break one unnoticed.
      { extends: true, test: { name: 'bench-smoke', include: ['test/bench/**/*.test.ts'], testTimeout: 180_000, maxConcurrency: 3 } },
    ],
  },
});
