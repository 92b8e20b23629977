import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { api } from './client';
import { meKeys } from './me';
import { disconnectSocket } from './socket';

/** Where 'Iniciar sesión con Google' goes: the server's sign-in, returning to this page. */
export function signInUrl(returnTo: string): string {
  const safe = returnTo.startsWith('/') && !returnTo.startsWith('//') ? returnTo : '/admin';
  return `/auth/google?returnTo=${encodeURIComponent(safe)}`;
}

/**
 * Full-page navigation to the sign-in flow (a fetch cannot follow an OAuth redirect). It replaces
 * the sign-in screen's history entry instead of adding one: once signed in, the server sends the
 * browser back to the same path, so Back from there does not land on the sign-in screen again.
 */
export function startSignIn(): void {
  const { pathname, search } = window.location;
  window.location.replace(signInUrl(`${pathname}${search}`));
}

/**
 * Signs out: POST /auth/logout, then forget every cached answer and close the socket. Setting
 * `me` to null first makes the gate show the unauthorised screen before the rest is cleared.
 */
export function useSignOut() {
  const queryClient = useQueryClient();
  const [isSigningOut, setSigningOut] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const signOut = useCallback(async () => {
    setSigningOut(true);
    setError(null);
    try {
      await api.post<unknown>('/auth/logout', {});
      disconnectSocket();
      await queryClient.cancelQueries();
      queryClient.setQueryData(meKeys.all, null);
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== meKeys.all[0] });
    } catch (caught) {
      setError(caught);
    } finally {
      setSigningOut(false);
    }
  }, [queryClient]);

  return { signOut, isSigningOut, error };
}
