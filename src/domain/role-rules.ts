/**
 * Roles and what they allow, without Zod (roles.ts adds the schema), so the web shell (which asks
 * canUsePanel of every signed-in user) does not download Zod: its first load stays small.
 */

export const ROLES = ['admin', 'seller', 'buyer'] as const;
export type Role = (typeof ROLES)[number];

/** SPEC §6: only admins and sellers may use the admin panel and the Live Hub. */
export function canUsePanel(roles: readonly Role[]): boolean {
  return roles.includes('admin') || roles.includes('seller');
}

export function isAdmin(roles: readonly Role[]): boolean {
  return roles.includes('admin');
}

/** SPEC §6: an admin with no companyId of its own runs the platform; one with a companyId, only its company. */
export function isPlatformAdmin(user: { roles: readonly Role[]; profileCompanyId: string | null }): boolean {
  return isAdmin(user.roles) && !user.profileCompanyId;
}

/** SPEC §3: a profile's companyId falls back to the user's own id. */
export function effectiveCompanyId(userId: string, companyId: string | null | undefined): string {
  return companyId?.trim() ? companyId.trim() : userId;
}

/**
 * Who may edit a company's record: a platform admin (no companyId) any company; a company admin
 * its company; a seller who is its own company (no companyId) that one-person company.
 */
export function canManageCompany(user: { id: string; roles: readonly Role[]; profileCompanyId: string | null }, companyId: string): boolean {
  if (isAdmin(user.roles)) return user.profileCompanyId === null || user.profileCompanyId === companyId;
  return user.roles.includes('seller') && user.profileCompanyId === null && companyId === user.id;
}

/** Role filter of the 'Usuarios' modal: Todos / Vendedores / Administradores / Compradores. */
export const USER_ROLE_FILTERS = ['all', 'seller', 'admin', 'buyer'] as const;
export type UserRoleFilter = (typeof USER_ROLE_FILTERS)[number];
