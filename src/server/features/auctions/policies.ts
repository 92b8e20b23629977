import type { SQL } from 'drizzle-orm';
import { isAdmin } from '../../../domain/role-rules.js';
import { auctions } from '../../db/schema.js';
import { isInScope, recordScope, type Scope, scopeWhere as scopeOver } from '../../policies/scope.js';
import type { CurrentUser } from '../../sessions/store.js';

/** Which auctions a panel user sees: SPEC §6's scope (src/server/policies/scope.ts). */
export type AuctionScope = Scope;

export const auctionScope = recordScope;

export { isInScope };

/** The WHERE clause of a scope over auctions; undefined means no restriction. */
export function scopeWhere(scope: AuctionScope): SQL | undefined {
  return scopeOver(scope, auctions);
}

/** SPEC §6: a non-admin creator is the auction's seller; the company is the creator's (falling back to the uid). */
export function ownershipOfNewAuction(user: Pick<CurrentUser, 'id' | 'roles' | 'companyId'>): { sellerId: string | null; companyId: string } {
  return { sellerId: isAdmin(user.roles) ? null : user.id, companyId: user.companyId };
}
