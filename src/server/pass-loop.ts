/** How a loop's passes have gone so far: what /readyz and /metrics tell the operators. */
export interface PassStatus {
  /** Passes finished, failed ones included. */
  runs: number;
  failures: number;
  /** When the last pass finished (null: none yet). */
  lastRunAt: Date | null;
  /** The last failed pass's error, kept after later passes succeed (null: none failed). */
  lastError: { message: string; at: Date } | null;
}

/** How a named background job has gone in this process, as /readyz and /metrics show it (jobs.ts). */
export interface JobStatus extends PassStatus {
  name: string;
  /** Started in this process and not stopped. */
  running: boolean;
}

/** A background job started with the app; `stop` waits for a pass under way to finish. */
export interface PassLoop {
  stop(): Promise<void>;
  status(): PassStatus;
}

/**
 * Runs a background job as passes: a pass, then sleep for as long as it answers (until the next
 * thing falls due), then the next pass, until stopped. Nothing is kept between passes, so a
 * restart or another instance simply finds the due rows on its own first pass. A failed pass is
 * logged (unless the app is stopping) and retried after `retryMs`. Each pass's end and each
 * failure are counted in `status()`.
 */
export function startPassLoop(opts: {
  /** Names the job in the log line of a failed pass ('<name> pass failed'). */
  name: string;
  /** The app's logger (only its `error` is used). */
  log: { error(obj: { err: unknown }, msg: string): void };
  /** One pass; answers how long to sleep before the next. `isStopped` lets a long pass end early. */
  pass: (isStopped: () => boolean) => Promise<number>;
  retryMs: number;
  firstDelayMs?: number;
  /** Whether the sleeping timer lets the process exit (a job the process need not wait for). */
  unref?: boolean;
}): PassLoop {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let stopped = false;
  const isStopped = () => stopped;
  const status: PassStatus = { runs: 0, failures: 0, lastRunAt: null, lastError: null };

  async function pass(): Promise<number> {
    try {
      return await opts.pass(isStopped);
    } catch (err) {
      status.failures++;
      status.lastError = { message: err instanceof Error ? err.message : String(err), at: new Date() };
      if (!stopped) opts.log.error({ err }, `${opts.name} pass failed`);
      return opts.retryMs;
    } finally {
      status.runs++;
      status.lastRunAt = new Date();
    }
  }

  function schedule(delay: number) {
    if (stopped) return;
    timer = setTimeout(() => {
      timer = null;
      running = pass().then((next) => {
        running = null;
        schedule(next);
      });
    }, delay);
    if (opts.unref) timer.unref();
  }

  schedule(opts.firstDelayMs ?? 0);
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
    status: () => ({ ...status }),
  };
}
