import { eq, type SQL, sql } from 'drizzle-orm';
import { canManageCompany, isPlatformAdmin } from '../../../domain/role-rules.js';
import { companies } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import { messages } from '../../messages.js';
import type { CurrentUser } from '../../sessions/store.js';

export type CompanyActor = Pick<CurrentUser, 'id' | 'roles' | 'profileCompanyId' | 'companyId'>;

/** Which company records an actor lists: all for a platform admin, else the one it manages (if any). */
export type CompanyScope = { kind: 'all' } | { kind: 'own'; companyId: string } | { kind: 'none' };

export function companyScope(actor: CompanyActor): CompanyScope {
  if (isPlatformAdmin(actor)) return { kind: 'all' };
  return canManageCompany(actor, actor.companyId) ? { kind: 'own', companyId: actor.companyId } : { kind: 'none' };
}

export function companyScopeWhere(scope: CompanyScope): SQL | undefined {
  if (scope.kind === 'all') return undefined;
  return scope.kind === 'own' ? eq(companies.id, scope.companyId) : sql`false`;
}

/** Out of scope answers exactly as an unknown id does, so ids cannot be probed. */
export function assertManages(actor: CompanyActor, companyId: string): void {
  if (!canManageCompany(actor, companyId)) throw companyNotFound();
}

export const companyNotFound = () => new AppError('NOT_FOUND', messages.companies.notFound);
