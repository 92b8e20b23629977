/**
 * The auth feature's public face: what other features may import from it, and its route plugins.
 * Other features import only this file (.dependency-cruiser.cjs, features-through-public-file).
 */
export { escapeHtml, page } from './pages.js';
export { authRoutes } from './routes.js';
