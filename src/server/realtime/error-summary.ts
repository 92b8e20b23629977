/**
 * Tells a stream of failures without flooding the log: the first at once, then at most one line
 * per period with how many failed since the last line and the newest of them. A Redis that goes
 * away fails every publish and every reconnect attempt, hundreds a second on a busy instance; one
 * line every ten seconds says as much.
 */
export function summarizeErrors(tell: (err: unknown, count: number) => void, everyMs = 10_000): { error: (err: unknown) => void; flush: () => void } {
  let pending = 0;
  let last: unknown;
  let timer: NodeJS.Timeout | null = null;

  const startPeriod = () => {
    timer = setTimeout(endPeriod, everyMs);
    timer.unref();
  };
  const tellPending = (): boolean => {
    if (pending === 0) return false;
    tell(last, pending);
    pending = 0;
    return true;
  };
  // A period that ends with failures told opens the next, so a steady stream gives one line per period.
  const endPeriod = () => {
    timer = null;
    if (tellPending()) startPeriod();
  };

  return {
    error(err) {
      if (timer) {
        pending += 1;
        last = err;
        return;
      }
      tell(err, 1);
      startPeriod();
    },
    /** Tells what waits now (on close, so nothing is lost). */
    flush() {
      if (timer) clearTimeout(timer);
      timer = null;
      tellPending();
    },
  };
}
