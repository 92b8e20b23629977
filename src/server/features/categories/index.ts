/**
 * The categories feature's public face: what other features may import from it, and its route plugins.
 * Other features import only this file (.dependency-cruiser.cjs, features-through-public-file).
 */
export { categoriesRoutes } from './routes.js';
