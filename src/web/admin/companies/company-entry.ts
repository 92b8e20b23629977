import type { Me } from '../../../domain/api-types.js';
import { canManageCompany, isPlatformAdmin } from '../../../domain/role-rules.js';

/** Who sees which entry: a platform admin 'Empresas' (every company), a company's admin or a solo seller 'Empresa'. */
export function companyEntry(me: Me): 'all' | 'own' | null {
  const actor = { id: me.user.id, roles: me.roles, profileCompanyId: me.profile.companyId };
  if (isPlatformAdmin(actor)) return 'all';
  return canManageCompany(actor, me.companyId) ? 'own' : null;
}
