/**
 * The seller-applications feature's public face (*Quiero vender*): its route plugin.
 * Other features import only this file (.dependency-cruiser.cjs, features-through-public-file).
 */
export { sellerApplicationsRoutes } from './routes.js';
