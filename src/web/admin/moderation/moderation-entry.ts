import type { Me } from '../../../domain/api-types.js';
import { canUsePanel, isPlatformAdmin } from '../../../domain/role-rules.js';

/** Who sees 'Moderación': a company's admins and sellers their company's; a platform admin picks the company first. */
export function moderationEntry(me: Me): 'all' | 'own' | null {
  if (isPlatformAdmin({ roles: me.roles, profileCompanyId: me.profile.companyId })) return 'all';
  return canUsePanel(me.roles) ? 'own' : null;
}
