import { useCallback, useState } from 'react';

/** Runs `task` unless a task of the same key is running; then answers undefined without running it. */
export type RunOnce = <T>(key: string, task: () => Promise<T>) => Promise<T | undefined>;

/** The keys' bookkeeping, outside React: `onChange` hears the running keys after each start and end. */
export function inFlightRunner(onChange: (running: ReadonlySet<string>) => void): RunOnce {
  const running = new Set<string>();
  return async (key, task) => {
    if (running.has(key)) return undefined;
    running.add(key);
    onChange(new Set(running));
    try {
      return await task();
    } finally {
      running.delete(key);
      onChange(new Set(running));
    }
  };
}

/**
 * One task per key at a time, however fast the clicks come: the runner answers before React
 * re-renders (a double click), the state disables the buttons for everyone to see.
 */
export function useInFlight() {
  const [busy, setBusy] = useState<ReadonlySet<string>>(() => new Set());
  const [run] = useState(() => inFlightRunner(setBusy));
  const isBusy = useCallback((key: string) => busy.has(key), [busy]);
  return { run, isBusy };
}

/**
 * Saves `value`, what was typed for `id`, one save at a time under `key`, and never drops it: a
 * value given while a save of the same id is on its way waits in `queued` (the newest replaces an
 * older one waiting), and the call whose save is running saves it when that save ends. Answers
 * whether the last save this call made succeeded; a call that left its value to the running one
 * answers true.
 */
export async function saveNewest<V>(
  run: RunOnce,
  queued: Map<string, V>,
  at: { id: string; key: string },
  value: V,
  save: (value: V) => Promise<boolean>,
): Promise<boolean> {
  queued.set(at.id, value);
  let saved = false;
  while (queued.has(at.id)) {
    const next = queued.get(at.id) as V;
    const done = await run(at.key, async () => {
      queued.delete(at.id);
      return save(next);
    });
    if (done === undefined) return true;
    saved = done;
  }
  return saved;
}

/** Keys of the tasks: one per payment and one per winners-summary row; shipping saves run beside them. */
export const busyKey = {
  payment: (id: string) => `payment:${id}`,
  shipping: (id: string) => `shipping:${id}`,
  ready: (key: string) => `ready:${key}`,
};
