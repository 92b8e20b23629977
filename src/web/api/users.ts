import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Role, UserRoleFilter } from '../../domain/role-rules.js';
import type { UserListItem, UserListResponse } from '../../domain/users.js';
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
  lists: () => [...userKeys.all, 'list'] as const,
  list: (params: UserListParams) => [...userKeys.lists(), params] as const,
};

/** GET /api/users: one page of the 'Usuarios' table; the previous page stays on screen while the next loads. */
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
    onSuccess: (updated) => {
      // Show the saved row at once on every cached page; the refetch then applies the filters again.
      queryClient.setQueriesData<UserListResponse>({ queryKey: userKeys.lists() }, (page) =>
        page ? { ...page, items: page.items.map((item) => (item.uid === updated.uid ? updated : item)) } : page,
      );
      void queryClient.invalidateQueries({ queryKey: userKeys.all });
      // Editing oneself changes what the panel shows.
      void queryClient.invalidateQueries({ queryKey: meKeys.all });
    },
  });
}

export const useSetUserRoles = () =>
  useUserMutation(({ uid, roles }: { uid: string; roles: Role[] }) => api.put<UserListItem>(`/api/users/${encodeURIComponent(uid)}/roles`, { roles }));

/** PUT /api/users/{uid}: platform admins only; null clears the companyId. */
export const useSetUserCompany = () =>
  useUserMutation(({ uid, companyId }: { uid: string; companyId: string | null }) =>
    api.put<UserListItem>(`/api/users/${encodeURIComponent(uid)}`, { companyId }),
  );
