import { and, eq, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { PaymentMachineState, PaymentRefusal } from '../../../domain/payments.js';
import { isPlatformAdmin } from '../../../domain/role-rules.js';
import type { Db, Tx } from '../../db/connect.js';
import { auctions, paymentItems, payments } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import { messages } from '../../messages.js';
import { isInScope, recordScope, type Scope, type ScopedActor, scopeWhere } from '../../policies/scope.js';
import type { PaymentRow } from './presenters.js';

/** Who may see and change which payments, and what the state machine refuses, in Spanish. */

export type Actor = ScopedActor;
export type PaymentScope = Scope;

/** Which payments a panel user sees: those of the auctions they see (SPEC §6). */
export const paymentScope = (user: Actor): PaymentScope => recordScope(user);

/**
 * A bill of the company's account with several sellers' items has no sellerId (collectors.ts);
 * each of those sellers sees it, as it holds their auctions (SPEC §6: a seller's payments are
 * those of its own auctions).
 */
const holdsAuctionOf = (sellerId: string): SQL =>
  and(
    isNull(payments.sellerId),
    sql`exists (select 1 from ${paymentItems} join ${auctions} on ${auctions.id} = ${paymentItems.auctionId} where ${paymentItems.paymentId} = ${payments.id} and ${auctions.sellerId} = ${sellerId})`,
  ) as SQL;

/** The WHERE clause of a scope over payments; undefined means no restriction. */
export function paymentScopeWhere(scope: PaymentScope): SQL | undefined {
  const own = scopeWhere(scope, payments);
  return scope.kind === 'seller' ? or(own, holdsAuctionOf(scope.userId)) : own;
}

/** The same test on a payment row already read (locked before a change). */
export async function isPaymentInScope(tx: Db | Tx, scope: PaymentScope, row: Pick<PaymentRow, 'id' | 'companyId' | 'sellerId'>): Promise<boolean> {
  if (isInScope(scope, row)) return true;
  if (scope.kind !== 'seller' || row.sellerId !== null) return false;
  const [hit] = await tx
    .select({ one: sql`1` })
    .from(payments)
    .where(and(eq(payments.id, row.id), holdsAuctionOf(scope.userId)));
  return Boolean(hit);
}

export { isInScope };

export const notFound = () => new AppError('NOT_FOUND', messages.errors.notFound);
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

/** Marking paid out is the platform's: an admin with no company. */
export function assertPlatformAdmin(actor: Actor): void {
  if (!isPlatformAdmin(actor)) throw new AppError('FORBIDDEN', messages.payments.platformAdminOnly);
}
