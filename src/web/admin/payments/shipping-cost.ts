import { formatMoney } from '../../../domain/money.js';
import { MAX_SHIPPING_COST } from '../../../domain/payments.js';

/** The most a shipping cost may be, as the error message shows it. */
export const MAX_SHIPPING_COST_TEXT = formatMoney(MAX_SHIPPING_COST);
