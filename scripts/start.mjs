/**
 * `npm start` (and the server's commands, `npm run db:backup` / `db:restore` / `storage:to-s3`:
 * `node scripts/start.mjs cli/db-backup …`). In production (NODE_ENV=production, in the environment or in .env) it runs
 * the release that `npm run build` made, with node alone. Otherwise it builds the server's
 * TypeScript sources as the release does, into a cache folder, when they changed (about a second;
 * scripts/server-build.mjs), and runs that with node alone too, in this same process (the
 * server building the web app first when its sources changed): the one-command start on a fresh
 * checkout, without a TypeScript loader in the server's memory.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseEnv } from 'node:util';

const root = fileURLToPath(new URL('..', import.meta.url));
/** What to run, under src/server (or dist/server): the server unless a command is named. */
const COMMANDS = new Set(['main', 'cli/db-backup', 'cli/db-restore', 'cli/storage-to-s3']);
const named = COMMANDS.has(process.argv[2] ?? '') ? process.argv.splice(2, 1)[0] : 'main';

// The server reads ./.env too (variables already set win); NODE_ENV in it decides which code runs.
const dotEnv = path.resolve('.env');
if (existsSync(dotEnv)) {
  for (const [key, value] of Object.entries(parseEnv(readFileSync(dotEnv, 'utf8')))) {
    if (process.env[key] === undefined) process.env[key] = value;
  }
}

if (process.env.NODE_ENV === 'production') {
  const built = path.join(root, 'dist/server', `${named}.js`);
  if (!existsSync(built) || (named === 'main' && !existsSync(path.join(root, 'dist/web/index.html')))) {
    console.error('NODE_ENV=production runs the built release, and there is none here: run `npm run build` first (see "A built release" in the README).');
    process.exit(1);
  }
  await import(pathToFileURL(built).href);
} else {
  const { ensureDevServerBuild } = await import('./server-build.mjs');
  const { dir, built } = await ensureDevServerBuild(root);
  if (built && named === 'main') console.log(`Server built from its sources into ${path.relative(process.cwd(), dir) || dir}.`);
  // Stack traces name the TypeScript sources, as they did when tsx ran them.
  process.setSourceMapsEnabled(true);
  await import(pathToFileURL(path.join(dir, 'server', `${named}.js`)).href);
}
