/**
 * The auctions feature's public face: what other features may import from it, and its route plugins.
 * Other features import only this file (.dependency-cruiser.cjs, features-through-public-file).
 */
export { auctionCreated, auctionUpdated } from './events.js';
export { auctionsRoutes } from './routes.js';
export { describeAuction } from './service.js';
