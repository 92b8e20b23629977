import { useQuery } from '@tanstack/react-query';
import type { AgoraConfigAnswer } from '../../../domain/video.js';
import { api } from '../../api/client';

/** SPEC §7: Agora answers whether it is configured; the Hub says so before anyone clicks 'Iniciar'. */
export function useBroadcastDisabled(provider: string | undefined): boolean {
  const agora = useQuery({
    queryKey: ['video', 'agora-config'],
    queryFn: ({ signal }) => api.get<AgoraConfigAnswer>('/api/agora-config', signal),
    enabled: provider === 'agora',
    staleTime: 60_000,
  });
  return provider === 'agora' && agora.data?.enabled === false;
}
