/**
 * The payments family's public face: bills (bills/) and what is built on them (unpaid/,
 * show-billing/, reminders/, purchases/, show-summary/). Other features import only this file, and
 * it names the route plugins and jobs the composition root starts. Files inside the family import
 * each other directly, never this one.
 */

export type { SellerAccounts } from './bills/accounts.js';
export { finalize, type ReminderDeps } from './bills/checkout.js';
export { collectorOf, collectorsOf, saleKey } from './bills/collectors.js';
export { connectRoutes } from './bills/connect-routes.js';
export { paymentChanged } from './bills/events.js';
export { type Actor, isInScope, type PaymentScope, paymentScope, paymentScopeWhere } from './bills/policies.js';
export { type PaymentItem, type PaymentRow, presentPayment } from './bills/presenters.js';
export { type UnbilledGroup, unbilledWins, view } from './bills/queries.js';
export { makeReminderLadders } from './bills/reminder-ladder.js';
export { paymentsRoutes } from './bills/routes.js';
export { addAuctions, changed, createDraft, lockPayment, type PaymentChange, save, saveShipping } from './bills/service.js';
export { createPayments } from './bills/setup.js';
export { machineState } from './bills/transitions.js';
export { purchasesRoutes } from './purchases/routes.js';
export { MAX_SLEEP_MS as REMINDERS_MAX_SLEEP_MS, startReminderJob } from './reminders/job.js';
export { remindersRoutes } from './reminders/routes.js';
export { whatsappWebhookPlugin } from './reminders/webhook-routes.js';
export { showBillingRoutes } from './show-billing/routes.js';
export { showSummaryRoutes } from './show-summary/routes.js';
export { startViewerSampler } from './show-summary/sampler.js';
export { startPaymentExpiry } from './unpaid/expiry.js';
export { unpaidRoutes } from './unpaid/routes.js';
