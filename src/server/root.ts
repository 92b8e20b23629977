import { fileURLToPath } from 'node:url';

/** Compiled in by the development start's build (scripts/server-build.mjs), which runs from a cache folder outside the checkout's layout. */
declare const MARTILLO_ROOT: string | undefined;

/** The checkout or release the server runs from: two folders above this file's (src/server, dist/server), unless the build named it. */
export const ROOT = typeof MARTILLO_ROOT === 'string' ? MARTILLO_ROOT : fileURLToPath(new URL('../..', import.meta.url));
