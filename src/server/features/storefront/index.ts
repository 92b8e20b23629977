/**
 * The storefront feature's public face: the buyers' home, search and seller's page (all reads).
 * Other features import only this file (.dependency-cruiser.cjs, features-through-public-file).
 */
export { storefrontRoutes } from './routes.js';
