import { z } from 'zod';
import { ROLES, type Role, USER_ROLE_FILTERS } from './role-rules.js';
import { ZRole } from './roles.js';
import { zText } from './text.js';

/** SPEC §3 user list item (GET /api/users). `uid` keeps SPEC's name. */
export interface UserListItem {
  uid: string;
  displayName: string | null;
  firstName: string | null;
  lastName: string | null;
  email: string;
  whatsapp: string | null;
  whatsappConsentGiven: boolean;
  roles: Role[];
  /** The profile's own companyId; null means the user is its own company (or a platform admin). */
  companyId: string | null;
  companyName: string | null;
  createdAt: number;
}

export const ZUserListQuery = z.object({
  role: z.enum(USER_ROLE_FILTERS).default('all'),
  search: zText().trim().max(100).default(''),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(50),
});

export interface UserListResponse {
  items: UserListItem[];
  total: number;
  page: number;
  pageSize: number;
}

/** PUT /api/users/{id}/roles. Codes are catalogue keys under `users.errors`. */
export const ZUserRolesInput = z.object({
  roles: z
    .array(ZRole, { error: 'rolesInvalid' })
    .max(ROLES.length, { error: 'rolesInvalid' })
    .transform((roles) => [...new Set(roles)]),
});

/** PUT /api/users/{id}: an empty companyId clears it (the user becomes its own company). */
export const ZUserCompanyInput = z.object({
  companyId: zText({ error: 'companyIdInvalid' })
    .trim()
    .max(64, { error: 'tooLong' })
    .regex(/^[\p{L}\p{N}_.-]*$/u, { error: 'companyIdInvalid' })
    .nullable()
    .transform((v) => (v ? v : null)),
});
