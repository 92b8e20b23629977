import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from './app.js';
import { type Config, ConfigError, loadConfig } from './config.js';
import { ensureWebBundle } from './web/bundle.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

function banner(config: Config, address: string): string {
  const db =
    config.database.kind === 'embedded'
      ? `embedded (PGlite in ${path.relative(process.cwd(), config.database.dir ?? '') || config.database.dir})`
      : 'postgresql';
  return [
    '',
    `  Martillo is running at ${address}`,
    `    database  ${db}`,
    `    sign-in   ${config.signIn.kind}${config.signIn.kind === 'google' ? ` (${config.signIn.issuer})` : ' (form at /auth/dev)'}`,
    `    payments  ${config.payments}`,
    `    video     ${config.video}`,
    `    realtime  socket.io${config.redisUrl ? ' + redis' : ''}`,
    '',
  ].join('\n');
}

async function main(): Promise<void> {
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
  await ensureWebBundle(root, (msg) => console.log(msg));
  const { app } = await buildApp({ config, webDir: path.join(root, 'dist/web') });

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info(`${signal} received: shutting down`);
    const force = setTimeout(() => {
      app.log.error('shutdown took more than 15 s: exiting');
      process.exit(1);
    }, 15_000);
    force.unref();
    app.close().then(
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
  console.log(banner(config, shown));
}

main().catch((err) => {
  console.error('Martillo could not start:', err instanceof Error ? err.message : err);
  process.exit(1);
});
