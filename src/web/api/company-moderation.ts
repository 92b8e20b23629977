import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CompanyBlock } from '../../domain/chat.js';
import { api } from './client';

const companyPath = (companyId: string) => `/api/companies/${encodeURIComponent(companyId)}`;

export const companyModerationKeys = {
  all: ['company-moderation'] as const,
  company: (companyId: string) => [...companyModerationKeys.all, companyId] as const,
  blocks: (companyId: string) => [...companyModerationKeys.company(companyId), 'blocks'] as const,
  mutedWords: (companyId: string) => [...companyModerationKeys.company(companyId), 'muted-words'] as const,
};

/** GET /api/companies/{id}/blocks: the users blocked from the company's shows, newest first. */
export function useCompanyBlocks(companyId: string | null) {
  return useQuery({
    queryKey: companyModerationKeys.blocks(companyId ?? ''),
    queryFn: ({ signal }) => api.get<{ items: CompanyBlock[] }>(`${companyPath(companyId ?? '')}/blocks`, signal),
    enabled: companyId !== null,
  });
}

/** DELETE /api/companies/{id}/blocks/{userId}: the user may chat and bid in the company's shows again. */
export function useUnblockUser(companyId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => api.del<void>(`${companyPath(companyId)}/blocks/${encodeURIComponent(userId)}`),
    onSuccess: (_answer, userId) => {
      queryClient.setQueryData<{ items: CompanyBlock[] }>(companyModerationKeys.blocks(companyId), (list) =>
        list ? { items: list.items.filter((b) => b.userId !== userId) } : list,
      );
      void queryClient.invalidateQueries({ queryKey: companyModerationKeys.blocks(companyId) });
    },
    // Unblocked meanwhile by someone else (404): the list is refreshed either way.
    onError: () => void queryClient.invalidateQueries({ queryKey: companyModerationKeys.blocks(companyId) }),
  });
}

/** GET /api/companies/{id}/muted-words. */
export function useMutedWords(companyId: string | null) {
  return useQuery({
    queryKey: companyModerationKeys.mutedWords(companyId ?? ''),
    queryFn: ({ signal }) => api.get<{ words: string[] }>(`${companyPath(companyId ?? '')}/muted-words`, signal),
    enabled: companyId !== null,
  });
}

/** PUT /api/companies/{id}/muted-words: the whole list, saved as it is or refused word by word. */
export function useSaveMutedWords(companyId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (words: string[]) => api.put<{ words: string[] }>(`${companyPath(companyId)}/muted-words`, { words }),
    onSuccess: (saved) => queryClient.setQueryData(companyModerationKeys.mutedWords(companyId), saved),
  });
}
