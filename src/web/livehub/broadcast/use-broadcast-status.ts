import { useCallback, useState } from 'react';

/** SPEC §4 "Broadcast state": not publishing, previewing, publishing; errors set 'error'. */
export type BroadcastPhase = 'idle' | 'previewing' | 'starting' | 'publishing' | 'stopping' | 'error';

/** The Spanish message of the last failure, with its detail when there is one. */
export type BroadcastError = { title: string; detail: string | null } | null;

/** Where the broadcast stands and what went wrong last: the state the media and publishing hooks write to. */
export function useBroadcastStatus() {
  const [phase, setPhase] = useState<BroadcastPhase>('idle');
  const [error, setError] = useState<BroadcastError>(null);

  /** A failure that stops what was under way: its message, and the 'error' phase. */
  const fail = useCallback((title: string, detail: string | null = null) => {
    setError({ title, detail });
    setPhase('error');
  }, []);

  /** A failure the show survives (a device switch, the server's stop): its message, the phase unchanged. */
  const warn = useCallback((title: string) => setError({ title, detail: null }), []);

  const clearError = useCallback(() => setError(null), []);

  return { phase, setPhase, error, fail, warn, clearError };
}

export type BroadcastStatus = ReturnType<typeof useBroadcastStatus>;
