import { isPlatformAdmin } from '../../../domain/role-rules.js';
import type { CurrentUser } from '../../sessions/store.js';

/**
 * Who may see and change which users and invitations (SPEC §6): a platform admin (an admin with no
 * company) everyone's; a company admin only its own company's. The routes let admins alone in.
 */
export type UserActor = Pick<CurrentUser, 'id' | 'roles' | 'profileCompanyId'>;

/** The company whose users and invitations the actor manages, or null for a platform admin (every company). */
export function managedCompany(actor: UserActor): string | null {
  return isPlatformAdmin(actor) ? null : (actor.profileCompanyId as string);
}

/** Whether the actor may see and change a user or an invitation of this company. */
export function mayManage(actor: UserActor, record: { companyId: string | null }): boolean {
  const company = managedCompany(actor);
  return company === null || record.companyId === company;
}

/** Moving a user to another company is the platform's alone. */
export function mayMoveBetweenCompanies(actor: UserActor): boolean {
  return isPlatformAdmin(actor);
}

/** A platform admin may invite into any company it names; a company admin into its own only. */
export function mayInviteInto(actor: UserActor, companyId: string | undefined): boolean {
  const company = managedCompany(actor);
  return company === null || companyId === undefined || companyId === company;
}
