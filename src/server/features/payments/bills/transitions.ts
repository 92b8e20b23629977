import type { PaymentMachineState, PaymentRefusal } from '../../../../domain/payments.js';
import type { payments } from '../../../db/schema.js';
import { AppError } from '../../../http/errors.js';
import { messages } from '../../../messages.js';

/**
 * What a payment's state allows next, and why not, in Spanish: the state machine of
 * src/domain/payments.ts read off a stored row, plus the checks it leaves to the row's columns.
 */

type PaymentRow = typeof payments.$inferSelect;

export const conflict = (message: string) => new AppError('CONFLICT', message);

const REFUSALS: Record<PaymentRefusal, string> = {
  notDraft: messages.payments.notDraft,
  notCancelable: messages.payments.notCancelable,
  notPaid: messages.payments.notPaid,
  payoutAlreadyRequested: messages.payments.payoutAlreadyRequested,
  payoutNotRequested: messages.payments.payoutNotRequested,
  alreadyPaidOut: messages.payments.alreadyPaidOut,
};

export const refused = (reason: PaymentRefusal) => conflict(REFUSALS[reason]);

export function machineState(row: PaymentRow): PaymentMachineState {
  return { paymentStatus: row.paymentStatus, payoutStatus: row.payoutStatus, flagged: row.flagged, providerStatus: row.providerStatus };
}

/** A draft whose checkout is being created (finalize's first step named its provider): its amount is fixed. */
export const isReserved = (row: Pick<PaymentRow, 'paymentStatus' | 'provider'>) => row.paymentStatus === 'draft' && row.provider !== null;

/** Shipping and items change only on a draft nobody is finalising. */
export function assertEditable(row: PaymentRow): void {
  if (row.paymentStatus !== 'draft') throw conflict(messages.payments.notDraft);
  if (isReserved(row)) throw conflict(messages.payments.finalizing);
}

/** A payout concerns only what the platform collected. */
export function assertPayoutDue(row: PaymentRow): void {
  if (row.collectedBySeller) throw conflict(messages.payments.payoutNotDue);
}
