import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Invitation, InvitationAnswer, InvitationListResponse, ReceivedInvitationList } from '../../domain/invitation-rules.js';
import { api } from './client';
import { meKeys } from './me';
import { userKeys } from './users';

export const invitationKeys = {
  all: ['invitations'] as const,
  list: () => [...invitationKeys.all, 'list'] as const,
  /** The signed-in account's own invitations (GET /api/me/invitations). */
  received: () => [...invitationKeys.all, 'received'] as const,
};

/** GET /api/invitations: the invitations the admin may see (its company's, or all for a platform admin). */
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
      // A revoked invitation never reaches the users list, but a race with its acceptance might have.
      void queryClient.invalidateQueries({ queryKey: userKeys.all });
    },
  });
}

/** GET /api/me/invitations: what was sent to the signed-in account's address, still open. */
export function useReceivedInvitations(enabled = true) {
  return useQuery({
    queryKey: invitationKeys.received(),
    queryFn: ({ signal }) => api.get<ReceivedInvitationList>('/api/me/invitations', signal),
    enabled,
  });
}

/**
 * POST /api/invitations/{id}/accept or /decline. Either way the list is read again (a refusal may
 * mean the invitation closed meanwhile); accepting also changes the account's roles and company.
 */
export function useAnswerInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, answer }: { id: string; answer: 'accept' | 'decline' }) =>
      api.post<InvitationAnswer>(`/api/invitations/${encodeURIComponent(id)}/${answer}`, {}),
    onSettled: async (data) => {
      if (data?.status === 'accepted') await queryClient.invalidateQueries({ queryKey: meKeys.all });
      await queryClient.invalidateQueries({ queryKey: invitationKeys.received() });
    },
  });
}
