import { eq, or, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { isAdmin, isPlatformAdmin } from '../../domain/role-rules.js';
import type { CurrentUser } from '../sessions/store.js';

/**
 * What a panel user sees (SPEC §6), for every record that carries a companyId and a sellerId
 * (auctions, payments, live sessions):
 * - a platform admin (admin with no companyId on its profile): everything;
 * - a company admin: its company's, matched on the record's companyId or sellerId;
 * - a seller: only the records whose sellerId is its uid (auctions, payments);
 * - for live sessions a seller also sees its company's: companyId or sellerId, merged.
 */
export type Scope = { kind: 'all' } | { kind: 'company'; companyId: string; userId: string } | { kind: 'seller'; userId: string };

export type ScopedActor = Pick<CurrentUser, 'id' | 'roles' | 'profileCompanyId' | 'companyId'>;

/** A record as the scope reads it. */
export interface Owned {
  companyId: string;
  sellerId: string | null;
}

/** Auctions, and payments (which follow their auctions): SPEC §6's "Auctions listed" row. */
export function recordScope(user: ScopedActor): Scope {
  if (isPlatformAdmin(user)) return { kind: 'all' };
  return isAdmin(user.roles) ? { kind: 'company', companyId: user.companyId, userId: user.id } : { kind: 'seller', userId: user.id };
}

/** Live sessions: SPEC §6's "Live sessions listed" row (a seller sees its company's sessions and its own). */
export function sessionScope(user: ScopedActor): Scope {
  const scope = recordScope(user);
  return scope.kind === 'seller' ? { kind: 'company', companyId: user.companyId, userId: user.id } : scope;
}

/** The WHERE clause of a scope over a table's companyId and sellerId columns; undefined means no restriction. */
export function scopeWhere(scope: Scope, columns: { companyId: AnyPgColumn; sellerId: AnyPgColumn }): SQL | undefined {
  switch (scope.kind) {
    case 'all':
      return undefined;
    case 'company':
      return or(eq(columns.companyId, scope.companyId), eq(columns.sellerId, scope.userId));
    case 'seller':
      return eq(columns.sellerId, scope.userId);
  }
}

/** The same test on a record already read (a row locked before a change). */
export function isInScope(scope: Scope, record: Owned): boolean {
  switch (scope.kind) {
    case 'all':
      return true;
    case 'company':
      return record.companyId === scope.companyId || record.sellerId === scope.userId;
    case 'seller':
      return record.sellerId === scope.userId;
  }
}
