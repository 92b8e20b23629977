import { useQuery } from '@tanstack/react-query';
import type { Me } from '../../domain/api-types.js';
import { canUsePanel } from '../../domain/role-rules.js';
import { api, isApiError } from './client';

export const meKeys = {
  all: ['me'] as const,
};

/** GET /api/me; a 401 means signed out, which is an answer (null), not an error. */
export async function fetchMe(signal?: AbortSignal): Promise<Me | null> {
  try {
    return await api.get<Me>('/api/me', signal);
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
