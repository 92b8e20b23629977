import { eq, or, type SQL } from 'drizzle-orm';
import { isAdmin } from '../../../domain/roles.js';
import { auctions } from '../../db/schema.js';
import type { CurrentUser } from '../auth/sessions.js';

/**
 * Which auctions a panel user sees (SPEC §6):
 * - a platform admin (admin with no companyId on its profile): all of them;
 * - a company admin: its company's, matched on the auction's companyId or sellerId;
 * - a seller: only those whose sellerId is its uid.
 */
export type AuctionScope = { kind: 'all' } | { kind: 'company'; companyId: string; userId: string } | { kind: 'seller'; userId: string };

export function auctionScope(user: Pick<CurrentUser, 'id' | 'roles' | 'profileCompanyId' | 'companyId'>): AuctionScope {
  if (isAdmin(user.roles)) return user.profileCompanyId ? { kind: 'company', companyId: user.companyId, userId: user.id } : { kind: 'all' };
  return { kind: 'seller', userId: user.id };
}

/** The WHERE clause of a scope; undefined means no restriction. */
export function scopeWhere(scope: AuctionScope): SQL | undefined {
  switch (scope.kind) {
    case 'all':
      return undefined;
    case 'company':
      return or(eq(auctions.companyId, scope.companyId), eq(auctions.sellerId, scope.userId));
    case 'seller':
      return eq(auctions.sellerId, scope.userId);
  }
}

export function isInScope(scope: AuctionScope, auction: { companyId: string; sellerId: string | null }): boolean {
  switch (scope.kind) {
    case 'all':
      return true;
    case 'company':
      return auction.companyId === scope.companyId || auction.sellerId === scope.userId;
    case 'seller':
      return auction.sellerId === scope.userId;
  }
}

/** SPEC §6: a non-admin creator is the auction's seller; the company is the creator's (falling back to the uid). */
export function ownershipOfNewAuction(user: Pick<CurrentUser, 'id' | 'roles' | 'companyId'>): { sellerId: string | null; companyId: string } {
  return { sellerId: isAdmin(user.roles) ? null : user.id, companyId: user.companyId };
}
