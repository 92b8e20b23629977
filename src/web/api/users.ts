import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Role } from '../../domain/roles.js';
import type { UserListItem, UserListResponse, UserRoleFilter } from '../../domain/users.js';
import { api } from './client';
import { meKeys } from './me';

export interface UserListParams {
  role: UserRoleFilter;
  search: string;
  page: number;
  pageSize: number;
}

export const userKeys = {
  all: ['users'] as const,
  list: (params: UserListParams) => [...userKeys.all, 'list', params] as const,
};

export function useUsers(params: UserListParams, enabled = true) {
  return useQuery({
    queryKey: userKeys.list(params),
    queryFn: ({ signal }) => {
      const query = new URLSearchParams({ role: params.role, page: String(params.page), pageSize: String(params.pageSize) });
      if (params.search.trim()) query.set('search', params.search.trim());
      return api.get<UserListResponse>(`/api/users?${query}`, signal);
    },
    enabled,
    placeholderData: keepPreviousData,
  });
}

function useUserMutation<TVars>(fn: (vars: TVars) => Promise<UserListItem>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: userKeys.all });
      // Editing oneself changes what the panel shows.
      await queryClient.invalidateQueries({ queryKey: meKeys.all });
    },
  });
}

export const useSetUserRoles = () =>
  useUserMutation(({ uid, roles }: { uid: string; roles: Role[] }) => api.put<UserListItem>(`/api/users/${encodeURIComponent(uid)}/roles`, { roles }));
export const useSetUserCompany = () =>
  useUserMutation(({ uid, companyId }: { uid: string; companyId: string | null }) =>
    api.put<UserListItem>(`/api/users/${encodeURIComponent(uid)}`, { companyId }),
  );
