import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Profile, ProfileInput } from '../../domain/profile.js';
import { api } from './client';
import { meKeys } from './me';

export const profileKeys = {
  all: ['profile'] as const,
  current: () => [...profileKeys.all, 'current'] as const,
};

export function useProfile(enabled = true) {
  return useQuery({
    queryKey: profileKeys.current(),
    queryFn: ({ signal }) => api.get<Profile>('/api/profile', signal),
    enabled,
    // The form is seeded from this once per opening; always read the stored profile fresh.
    staleTime: 0,
    // A refetch behind an open form would reset what the user is typing.
    refetchOnWindowFocus: false,
  });
}

export function useSaveProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ProfileInput) => api.put<Profile>('/api/profile', input),
    onSuccess: async (profile) => {
      queryClient.setQueryData(profileKeys.current(), profile);
      await queryClient.invalidateQueries({ queryKey: meKeys.all });
    },
  });
}
