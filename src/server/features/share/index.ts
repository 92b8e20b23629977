/**
 * The share feature's public face: link previews (the og: tags a page's HTML carries, built by
 * `pageHead`, which app.ts hands to the web layer) and the card pictures' routes (`/og/…`).
 * Other features import only this file (.dependency-cruiser.cjs, features-through-public-file).
 */
export { shareRoutes } from './routes.js';
export { createShare, type Share } from './service.js';
