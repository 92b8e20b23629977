import { and, isNull, or, type SQL, sql } from 'drizzle-orm';
import { isPlatformAdmin } from '../../../../domain/role-rules.js';
import { auctions, paymentItems, payments } from '../../../db/schema.js';
import { AppError } from '../../../http/errors.js';
import { messages } from '../../../messages.js';
import { isInScope, recordScope, type Scope, type ScopedActor, scopeWhere } from '../../../policies/scope.js';

/** Who may see and change which payments (SPEC §6). What a payment's state allows is in transitions.ts. */

export type Actor = ScopedActor;
export type PaymentScope = Scope;

/** Which payments a panel user sees: those of the auctions they see (SPEC §6). */
export const paymentScope = (user: Actor): PaymentScope => recordScope(user);

/**
 * A bill of the company's account with several sellers' items has no sellerId (collectors.ts);
 * each of those sellers sees it, as it holds their auctions (SPEC §6: a seller's payments are
 * those of its own auctions).
 */
export const holdsAuctionOf = (sellerId: string): SQL =>
  and(
    isNull(payments.sellerId),
    sql`exists (select 1 from ${paymentItems} join ${auctions} on ${auctions.id} = ${paymentItems.auctionId} where ${paymentItems.paymentId} = ${payments.id} and ${auctions.sellerId} = ${sellerId})`,
  ) as SQL;

/** The WHERE clause of a scope over payments; undefined means no restriction. */
export function paymentScopeWhere(scope: PaymentScope): SQL | undefined {
  const own = scopeWhere(scope, payments);
  return scope.kind === 'seller' ? or(own, holdsAuctionOf(scope.userId)) : own;
}

export { isInScope };

/** Marking paid out is the platform's: an admin with no company. */
export function assertPlatformAdmin(actor: Actor): void {
  if (!isPlatformAdmin(actor)) throw new AppError('FORBIDDEN', messages.payments.platformAdminOnly);
}
