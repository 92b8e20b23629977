/**
 * The payments feature's public face: what the other bill features (unpaid, show-billing,
 * reminders) and app.ts use of it. Anything not here is the feature's own; its files import each
 * other directly, never this one.
 */

export type { SellerAccounts } from './accounts.js';
export { finalize, type ReminderDeps } from './checkout.js';
export { collectorOf, collectorsOf, saleKey } from './collectors.js';
export { connectRoutes } from './connect-routes.js';
export { paymentChanged } from './events.js';
export { type Actor, isInScope, type PaymentScope, paymentScope, paymentScopeWhere } from './policies.js';
export { type PaymentItem, type PaymentRow, presentPayment } from './presenters.js';
export { type UnbilledGroup, unbilledWins, view } from './queries.js';
export { makeReminderLadders } from './reminder-ladder.js';
export { paymentsRoutes } from './routes.js';
export { addAuctions, changed, createDraft, lockPayment, type PaymentChange, save, saveShipping } from './service.js';
export { createPayments } from './setup.js';
export { machineState } from './transitions.js';
