import { useQuery } from '@tanstack/react-query';
import type { Me, MeAnswer } from '../../domain/api-types.js';
import { canUsePanel, isPlatformAdmin as isPlatformAdminRole } from '../../domain/role-rules.js';
import { api, isApiError } from './client';

export const meKeys = {
  all: ['me'] as const,
};

/** GET /api/me; signed out is null ({ user: null }, or a 401 from a server before that answer). */
export async function fetchMe(signal?: AbortSignal): Promise<Me | null> {
  try {
    const answer = await api.get<MeAnswer>('/api/me', signal);
    return answer.user === null ? null : answer;
  } catch (error) {
    if (isApiError(error) && error.status === 401) return null;
    throw error;
  }
}

export function useMe() {
  return useQuery({ queryKey: meKeys.all, queryFn: ({ signal }) => fetchMe(signal) });
}

/** The name to greet someone by: profile first name, Google display name, then the email. */
export function displayNameOf(me: Me): string {
  const first = me.profile.firstName?.trim();
  const last = me.profile.lastName?.trim();
  if (first) return last ? `${first} ${last}` : first;
  return me.user.displayName?.trim() || me.user.email;
}

export function hasPanelAccess(me: Me | null | undefined): me is Me {
  return Boolean(me && canUsePanel(me.roles));
}

/** A platform admin is an admin with no companyId of its own; only it may change companyIds. */
export function isPlatformAdmin(me: Me): boolean {
  return isPlatformAdminRole({ roles: me.roles, profileCompanyId: me.profile.companyId?.trim() || null });
}
