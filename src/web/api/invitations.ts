import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Invitation, InvitationListResponse } from '../../domain/invitations.js';
import { api } from './client';
import { userKeys } from './users';

export const invitationKeys = {
  all: ['invitations'] as const,
  list: () => [...invitationKeys.all, 'list'] as const,
};

/** GET /api/invitations: the open invitations the admin may see (its company's, or all for a platform admin). */
export function useInvitations(enabled = true) {
  return useQuery({
    queryKey: invitationKeys.list(),
    queryFn: ({ signal }) => api.get<InvitationListResponse>('/api/invitations', signal),
    enabled,
  });
}

/** POST /api/invitations. */
export function useCreateInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { email: string; companyId?: string }) => api.post<Invitation>('/api/invitations', input),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: invitationKeys.all }),
  });
}

/** DELETE /api/invitations/{id}. */
export function useRevokeInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.del<void>(`/api/invitations/${encodeURIComponent(id)}`),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: invitationKeys.all });
      // A revoked invitation never reaches the users list, but a race with its sign-in might have.
      void queryClient.invalidateQueries({ queryKey: userKeys.all });
    },
  });
}
