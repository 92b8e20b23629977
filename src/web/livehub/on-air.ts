import { useSyncExternalStore } from 'react';

/**
 * The session this page is broadcasting (publishing or starting), or null: the Hub's screen asks
 * before a move inside the app would end the broadcast (loading another show, 'Volver a Admin'),
 * as the phone's '<' does. The broadcast lives in a panel; the moves are the screen's.
 */
let onAir: string | null = null;
const listeners = new Set<() => void>();

export function setOnAir(sessionId: string | null): void {
  if (onAir === sessionId) return;
  onAir = sessionId;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useOnAirSession(): string | null {
  return useSyncExternalStore(subscribe, () => onAir);
}
