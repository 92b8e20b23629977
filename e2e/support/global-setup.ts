import { fileURLToPath } from 'node:url';
import { ensureWebBundle } from '../../src/server/web/bundle.js';

/** Builds the web app once for the whole browser suite, exactly as `npm start` would. */
export default async function setup(): Promise<void> {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  await ensureWebBundle(root, (msg) => console.log(msg));
}
