/**
 * The SFU child's defences against its own bugs (VIDEO.md, "Hostile offers and remote
 * candidates"): the process serves every show on the server, so one peer's trouble must stay with
 * that peer. What goes wrong is written to stderr, which the supervisor logs.
 */

/** More uncaught exceptions than this within the window: the worker's state is not to be trusted. */
const EXCEPTION_BURST = { count: 5, windowMs: 60_000 };

export function report(what: string, err: unknown): void {
  try {
    process.stderr.write(`sfu: ${what}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  } catch {
    // stderr is gone with the server; nothing is left to tell
  }
}

/**
 * `fn` made safe as a node-datachannel callback: an exception thrown in one reaches C++ as a
 * Napi::Error, which aborts the whole process (std::terminate), past any JavaScript handler.
 */
export function guard<A extends unknown[]>(what: string, fn: (...args: A) => void): (...args: A) => void {
  return (...args) => {
    try {
      fn(...args);
    } catch (err) {
      report(`${what} failed`, err);
    }
  };
}

/**
 * Logs what no handler caught, and keeps serving where that is safe. A stray rejection changes no
 * state (every request already answers through its own promise): logged, nothing else. An
 * uncaught exception stopped some function half-way; what it can leave behind here is one room's
 * or one peer's entry (their native state changes clean those), while exiting would drop every
 * show at once, so one is logged and survived. A burst of them means the process itself is broken
 * for everyone: it exits, and the supervisor starts a clean one.
 */
export function keepServing(): void {
  process.stderr.on('error', () => {});
  process.on('unhandledRejection', (reason) => report('unhandled rejection (still serving)', reason));
  let recent: number[] = [];
  process.on('uncaughtException', (err) => {
    const now = Date.now();
    recent = [...recent.filter((at) => now - at < EXCEPTION_BURST.windowMs), now];
    if (recent.length > EXCEPTION_BURST.count) {
      report(`uncaught exception, ${recent.length} within ${EXCEPTION_BURST.windowMs / 1000} s: exiting`, err);
      process.exit(70);
    }
    report('uncaught exception (still serving)', err);
  });
}
