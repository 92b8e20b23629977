/**
 * `npm run build`: the release. The web app into dist/web (Vite, as `npm start` builds it in
 * development), and the server with the shared domain code as plain JavaScript into dist/server
 * and dist/domain, file for file (the PGlite thread and the SFU process start from files beside
 * their own), with the SQL files the server reads at start. `NODE_ENV=production npm start` then
 * runs it with node alone: a production install (`npm ci --omit=dev`) has no TypeScript runner,
 * bundler, test or benchmark tools.
 */
import { cpSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { ensureWebBundle } from '../src/server/web/bundle.js';

const root = fileURLToPath(new URL('..', import.meta.url));
/** The code the server runs: its own and the domain rules it shares with the web app. */
const SERVER_SOURCES = ['src/server', 'src/domain'];

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    return statSync(file).isDirectory() ? filesUnder(file) : [file];
  });
}

async function main(): Promise<void> {
  const started = Date.now();
  await ensureWebBundle(root, (msg) => console.log(msg));

  const sources = SERVER_SOURCES.flatMap((dir) => filesUnder(path.join(root, dir)));
  const code = sources.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'));
  const assets = sources.filter((f) => !f.endsWith('.ts'));
  for (const dir of SERVER_SOURCES) rmSync(path.join(root, dir.replace(/^src/, 'dist')), { recursive: true, force: true });
  await build({
    entryPoints: code,
    outdir: path.join(root, 'dist'),
    outbase: path.join(root, 'src'),
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: 'linked',
    logLevel: 'warning',
  });
  // What the server reads beside its code (the database's SQL functions).
  for (const file of assets) cpSync(file, path.join(root, 'dist', path.relative(path.join(root, 'src'), file)));
  console.log(`Release built in ${((Date.now() - started) / 1000).toFixed(1)} s: dist/web, dist/server (${code.length} files), dist/domain.`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
