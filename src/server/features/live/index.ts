/**
 * The live feature's public face: what other features may import from it, and its route plugins.
 * Other features import only this file (.dependency-cruiser.cjs, features-through-public-file).
 */

export { addLot } from './lots/lots.js';
export { liveRoutes } from './routes.js';
export { liveCalendarRoutes } from './sessions/calendar-routes.js';
export { readSessionView } from './sessions/queries.js';
export { restoreRehearsal } from './sessions/rehearsal-snapshot.js';
export { bumpSession, lockEditable, readEditable } from './sessions/sessions.js';
export { agoraRoutes } from './show/agora-routes.js';
export { sessionChanged } from './show/events.js';
