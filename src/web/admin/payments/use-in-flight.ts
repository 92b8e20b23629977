import { useCallback, useRef, useState } from 'react';

/**
 * One task per key at a time, however fast the clicks come: the ref answers before React
 * re-renders (a double click), the state disables the buttons for everyone to see.
 */
export function useInFlight() {
  const running = useRef(new Set<string>());
  const [busy, setBusy] = useState<ReadonlySet<string>>(() => new Set());

  const run = useCallback(async <T>(key: string, task: () => Promise<T>): Promise<T | undefined> => {
    if (running.current.has(key)) return undefined;
    running.current.add(key);
    setBusy(new Set(running.current));
    try {
      return await task();
    } finally {
      running.current.delete(key);
      setBusy(new Set(running.current));
    }
  }, []);

  const isBusy = useCallback((key: string) => busy.has(key), [busy]);
  return { run, isBusy };
}

/** Keys of the tasks: one per payment and one per winners-summary row; shipping saves run beside them. */
export const busyKey = {
  payment: (id: string) => `payment:${id}`,
  shipping: (id: string) => `shipping:${id}`,
  ready: (key: string) => `ready:${key}`,
};
