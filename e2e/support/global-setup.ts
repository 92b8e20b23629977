import { ensureWebBundle } from '../../src/server/web/bundle.js';
import { root, webDir } from './app.js';

/** Builds the web app once for the whole browser suite, exactly as `npm start` would. */
export default async function setup(): Promise<void> {
  await ensureWebBundle(root, (msg) => console.log(msg), webDir);
}
