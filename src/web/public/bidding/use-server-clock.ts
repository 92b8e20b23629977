import { useEffect, useState } from 'react';

/** setTimeout overflows past 2^31-1 ms (about 24 days) and would fire at once. */
const MAX_TIMER_MS = 2 ** 30;

/**
 * The server's time (device time plus `offset`), re-rendering just after each of the server's
 * second (or `stepMs`) boundaries, so every countdown on the page turns at the same instant.
 */
export function useServerNow(offset: number, stepMs = 1000): number {
  const [now, setNow] = useState(() => Date.now() + offset);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout>;
    const tick = () => {
      const current = Date.now() + offset;
      setNow(current);
      timer = setTimeout(tick, stepMs - (current % stepMs) + 5);
    };
    tick();
    return () => clearTimeout(timer);
  }, [offset, stepMs]);
  return now;
}

/** Whether the server's clock has reached `at`; flips once, at that moment, without a per-second tick. */
export function useHasPassed(at: number | null, offset: number): boolean {
  const [passed, setPassed] = useState(() => at !== null && Date.now() + offset >= at);
  useEffect(() => {
    if (at === null) {
      setPassed(false);
      return;
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    const check = () => {
      const left = at - (Date.now() + offset);
      setPassed(left <= 0);
      if (left > 0) timer = setTimeout(check, Math.min(left, MAX_TIMER_MS));
    };
    check();
    return () => clearTimeout(timer);
  }, [at, offset]);
  return passed;
}
