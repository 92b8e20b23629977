import { isPlatformAdmin, type Role } from '../../../domain/role-rules.js';
import type { CurrentUser } from '../../sessions/store.js';

/** An account that already sells (seller or admin, of any company) has nothing to apply for. */
export function sellsAlready(roles: readonly Role[]): boolean {
  return roles.includes('seller') || roles.includes('admin');
}

/** Only platform admins (admin with no company of its own, SPEC §6) see everyone's requests and decide them. */
export function mayDecide(actor: Pick<CurrentUser, 'roles' | 'profileCompanyId'>): boolean {
  return isPlatformAdmin(actor);
}
