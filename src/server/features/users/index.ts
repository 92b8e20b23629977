/**
 * The users feature's public face: what other features may import from it, and its route plugins.
 * Other features import only this file (.dependency-cruiser.cjs, features-through-public-file).
 */
export { usersRoutes } from './routes.js';
