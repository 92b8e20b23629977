/**
 * The push feature's public face: Web Push subscriptions, the VAPID keys and the sender job. The
 * alerts feature writes push_deliveries rows; nothing here needs importing to have them sent.
 */
export { pushRoutes } from './routes.js';
export { MAX_SLEEP_MS as PUSH_SENDER_MAX_SLEEP_MS, startPushSender } from './sender.js';
