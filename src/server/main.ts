import path from 'node:path';
import { buildApp } from './app.js';
import { type Config, ConfigError, loadConfig } from './config.js';
import { loadDotEnv } from './dotenv.js';
import { findFfmpeg, findJanusPpRec, replaysLine } from './features/replays/index.js';
import { ROOT } from './root.js';
import { ensureWebBundleApart } from './web/bundle.js';

const isLoopback = (host: string) => host === 'localhost' || host === '::1' || host.startsWith('127.');

function banner(config: Config, address: string, replays: string): string {
  let db = 'postgresql';
  if (config.database.kind === 'embedded') {
    const dir = config.database.dir ?? '';
    const relative = path.relative(process.cwd(), dir);
    db = `embedded (PGlite in ${relative && !relative.startsWith('..') ? relative : dir})`;
  }
  return [
    '',
    `  Martillo is running at ${address}`,
    `    database  ${db}`,
    `    sign-in   ${config.signIn.kind}${config.signIn.kind === 'google' ? ` (${config.signIn.issuer})` : ' (form at /auth/dev)'}`,
    `    payments  ${config.payments.provider}`,
    `    video     ${videoLine(config)}`,
    `    realtime  socket.io${config.redisUrl ? ' + redis' : ''}`,
    `    ${replays}`,
    `    images    ${config.storage.kind === 's3' ? `s3 (${config.storage.bucket})` : 'local disk (DATA_DIR/uploads)'}`,
    // Several instances each keep their own disk: an image uploaded through one is missing on the others.
    ...(config.redisUrl && config.storage.kind === 'local'
      ? ["    warning   REDIS_URL is set (several instances?) but images are on this instance's disk: set STORAGE=s3"]
      : []),
    `    listening ${config.host}${isLoopback(config.host) ? ' (this computer only; HOST=0.0.0.0 opens it to your LAN, see README)' : ''}`,
    '',
  ].join('\n');
}

async function main(): Promise<void> {
  loadDotEnv();
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  // Production runs the release `npm run build` made (scripts/start.mjs checked it is there); development builds as it goes.
  // In a child process: Vite's build would otherwise stay in the server's memory (bench/README.md, idle memory).
  if (config.env !== 'production') await ensureWebBundleApart(ROOT);
  const { app, ctx } = await buildApp({ config, webDir: path.join(ROOT, 'dist/web'), logger: process.stdout.isTTY ? 'pretty' : 'json' });

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    const drainMs = config.shutdownDrainMs;
    app.log.info(`${signal} received: shutting down${drainMs ? ` in ${drainMs / 1000} s (/readyz answers 503 meanwhile)` : ''}`);
    const force = setTimeout(() => {
      app.log.error('shutdown took more than 15 s: exiting');
      process.exit(1);
    }, drainMs + 15_000);
    force.unref();
    // Behind a load balancer: it sees /readyz fail and stops sending here while everything is
    // still answered, so no request meets a closing server (SHUTDOWN_DRAIN_SECONDS).
    ctx.lifecycle.draining = true;
    new Promise((resolve) => setTimeout(resolve, drainMs))
      .then(() => app.close())
      .then(
        () => process.exit(0),
        (err) => {
          app.log.error({ err }, 'shutdown failed');
          process.exit(1);
        },
      );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  const port = (app.server.address() as { port: number }).port;
  const shown = config.publicUrl.port === String(port) || config.publicUrl.port === '' ? config.publicUrl.origin : `http://localhost:${port}`;
  const janus = config.video.provider === 'janus' ? { ppRec: await findJanusPpRec() } : undefined;
  console.log(banner(config, shown, replaysLine(await findFfmpeg(), janus)));
}

main().catch((err) => {
  console.error('Martillo could not start:', err instanceof Error ? err.message : err);
  process.exit(1);
});

function videoLine(config: Config): string {
  const { video } = config;
  if (video.provider === 'janus') return `janus (${video.janus?.url})`;
  if (video.provider === 'agora') return video.agora ? 'agora' : 'agora (disabled: set AGORA_APP_ID and AGORA_APP_CERTIFICATE)';
  return 'embedded SFU';
}
