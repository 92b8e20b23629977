import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Category, CategoryInput } from '../../domain/categories.js';
import { auctionKeys } from './auctions';
import { api } from './client';

export const categoryKeys = {
  all: ['categories'] as const,
  list: () => [...categoryKeys.all, 'list'] as const,
};

/** GET /api/categories: public, sorted by name. */
export function useCategories() {
  return useQuery({
    queryKey: categoryKeys.list(),
    queryFn: ({ signal }) => api.get<Category[]>('/api/categories', signal),
  });
}

function useCategoryMutation<TVars>(fn: (vars: TVars) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: categoryKeys.all });
      // Auction rows show the category's name.
      await queryClient.invalidateQueries({ queryKey: auctionKeys.lists() });
    },
  });
}

export const useAddCategory = () => useCategoryMutation((input: CategoryInput) => api.post<Category>('/api/categories', input));
export const useRenameCategory = () =>
  useCategoryMutation(({ id, input }: { id: string; input: CategoryInput }) => api.put<Category>(`/api/categories/${encodeURIComponent(id)}`, input));
export const useDeleteCategory = () => useCategoryMutation((id: string) => api.del<{ id: string }>(`/api/categories/${encodeURIComponent(id)}`));
