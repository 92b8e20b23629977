/**
 * The live feature's public face: what other features may import from it, and its route plugins.
 * Other features import only this file (.dependency-cruiser.cjs, features-through-public-file).
 */
export { agoraRoutes } from './agora-routes.js';
export { liveCalendarRoutes } from './calendar-routes.js';
export { addLot } from './lots.js';
export { liveRoutes } from './routes.js';
export { bumpSession, lockEditable, readEditable } from './sessions.js';
