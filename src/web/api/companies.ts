import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Company, CompanyInput, CompanyListResponse } from '../../domain/companies.js';
import { auctionKeys } from './auctions';
import { api } from './client';
import { meKeys } from './me';
import { userKeys } from './users';

export interface CompanyListParams {
  search: string;
  page: number;
  pageSize: number;
}

export const companyKeys = {
  all: ['companies'] as const,
  lists: () => [...companyKeys.all, 'list'] as const,
  list: (params: CompanyListParams) => [...companyKeys.lists(), params] as const,
  detail: (id: string) => [...companyKeys.all, 'detail', id] as const,
};

/** GET /api/companies: one page of 'Empresas' (platform admins see every company). */
export function useCompanies(params: CompanyListParams, enabled = true) {
  return useQuery({
    queryKey: companyKeys.list(params),
    queryFn: ({ signal }) => {
      const query = new URLSearchParams({ page: String(params.page), pageSize: String(params.pageSize) });
      if (params.search.trim()) query.set('search', params.search.trim());
      return api.get<CompanyListResponse>(`/api/companies?${query}`, signal);
    },
    enabled,
    placeholderData: keepPreviousData,
  });
}

/** GET /api/companies/{id}. */
export function useCompany(id: string, enabled = true) {
  return useQuery({
    queryKey: companyKeys.detail(id),
    queryFn: ({ signal }) => api.get<Company>(`/api/companies/${encodeURIComponent(id)}`, signal),
    enabled,
  });
}

/** PUT /api/companies/{id}: the new name shows in the header, the auction table and the users list. */
export function useSaveCompany() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: CompanyInput }) => api.put<Company>(`/api/companies/${encodeURIComponent(id)}`, input),
    onSuccess: (saved) => {
      queryClient.setQueryData(companyKeys.detail(saved.id), saved);
      void queryClient.invalidateQueries({ queryKey: companyKeys.lists() });
      void queryClient.invalidateQueries({ queryKey: meKeys.all });
      void queryClient.invalidateQueries({ queryKey: auctionKeys.all });
      void queryClient.invalidateQueries({ queryKey: userKeys.all });
    },
  });
}
