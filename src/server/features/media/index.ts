/**
 * The media feature's public face: what other features may import from it, and its route plugins.
 * Other features import only this file (.dependency-cruiser.cjs, features-through-public-file).
 */
export { mediaRoutes, UPLOADS_PATH } from './routes.js';
