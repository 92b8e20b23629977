/**
 * The companies feature's public face: what other features may import from it, and its route plugins.
 * Other features import only this file (.dependency-cruiser.cjs, features-through-public-file).
 */
export { winnerNotBlockedByCompany } from './blocked-winners.js';
export { companiesRoutes } from './routes.js';
export { renameCompany } from './service.js';
