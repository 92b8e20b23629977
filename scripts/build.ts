/**
 * `npm run build`: the release. The web app into dist/web (Vite, as `npm start` builds it in
 * development), and the server with the shared domain code as plain JavaScript into dist/server
 * and dist/domain (scripts/server-build.mjs, the same build the development start runs from).
 * `NODE_ENV=production npm start` then runs it with node alone: a production install
 * (`npm ci --omit=dev`) has no TypeScript runner, bundler, test or benchmark tools.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureWebBundle } from '../src/server/web/bundle.js';
import { buildServer } from './server-build.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

async function main(): Promise<void> {
  const started = Date.now();
  await ensureWebBundle(root, (msg) => console.log(msg));
  const { files } = await buildServer(root, path.join(root, 'dist'));
  console.log(`Release built in ${((Date.now() - started) / 1000).toFixed(1)} s: dist/web, dist/server (${files} files), dist/domain.`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
