/**
 * The payments feature's public face: what other features may import from it, and its route plugins.
 * Other features import only this file (.dependency-cruiser.cjs, features-through-public-file).
 */
export { finalize } from './checkout.js';
export { collectorOf, collectorsOf, saleKey } from './collectors.js';
export { connectRoutes } from './connect-routes.js';
export { paymentChanged } from './events.js';
export { type Actor, isInScope, type PaymentScope, paymentScope, paymentScopeWhere } from './policies.js';
export { type PaymentItem, type PaymentRow, presentPayment } from './presenters.js';
export { awaitingDecisionSql, view } from './queries.js';
export { paymentsRoutes } from './routes.js';
export { addAuctions, changed, createDraft, lockPayment, type PaymentChange, save } from './service.js';
export { machineState } from './transitions.js';
