import { useQuery } from '@tanstack/react-query';
import type { PublicConfig } from '../../domain/api-types.js';
import { api } from './client';

export const configKeys = {
  all: ['config'] as const,
};

/** GET /api/config: which engines run, for UI hints only (never for permissions). */
export function usePublicConfig() {
  return useQuery({
    queryKey: configKeys.all,
    queryFn: ({ signal }) => api.get<PublicConfig>('/api/config', signal),
    staleTime: Number.POSITIVE_INFINITY,
  });
}
