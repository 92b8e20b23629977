import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Category, CategoryInput } from '../../domain/categories.js';
import { foldText } from '../../domain/text.js';
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

const byName = new Intl.Collator('es-MX', { sensitivity: 'base', numeric: true });

/** The server's order (accent- and case-insensitive Spanish alphabetical), so a cache edit does not jump on refetch. */
export function sortCategories(list: Category[]): Category[] {
  return [...list].sort((a, b) => byName.compare(foldText(a.name), foldText(b.name)) || a.id.localeCompare(b.id));
}

function editCachedList(queryClient: QueryClient, edit: (list: Category[]) => Category[]) {
  queryClient.setQueryData<Category[]>(categoryKeys.list(), (list) => (list ? sortCategories(edit(list)) : list));
}

function useCategoryMutation<TVars, TResult>(fn: (vars: TVars) => Promise<TResult>, applyToCache: (list: Category[], result: TResult) => Category[]) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: (result) => {
      // The answer updates the list at once; the refetches below converge with other admins' edits.
      editCachedList(queryClient, (list) => applyToCache(list, result));
      void queryClient.invalidateQueries({ queryKey: categoryKeys.all });
      // Auction rows show the category's name.
      void queryClient.invalidateQueries({ queryKey: auctionKeys.lists() });
    },
  });
}

export const useAddCategory = () =>
  useCategoryMutation(
    (input: CategoryInput) => api.post<Category>('/api/categories', input),
    (list, added) => [...list.filter((c) => c.id !== added.id), added],
  );

export const useRenameCategory = () =>
  useCategoryMutation(
    ({ id, input }: { id: string; input: CategoryInput }) => api.put<Category>(`/api/categories/${encodeURIComponent(id)}`, input),
    (list, renamed) => list.map((c) => (c.id === renamed.id ? renamed : c)),
  );

export const useDeleteCategory = () =>
  useCategoryMutation(
    (id: string) => api.del<{ id: string }>(`/api/categories/${encodeURIComponent(id)}`),
    (list, deleted) => list.filter((c) => c.id !== deleted.id),
  );
