/**
 * The alerts feature's public face: following sellers, 'Avísame', the bell and the go-live fan-out.
 * Other features import only this file (.dependency-cruiser.cjs, features-through-public-file):
 * `notifyUser` writes one notification (an application decided, say) and answers its bell event.
 */
export { notifyUser, unreadCounts } from './bell.js';
export { SHOW_ALERTS_EVERY_MS, startShowAlerts } from './fan-out.js';
export { alertsRoutes } from './routes.js';
