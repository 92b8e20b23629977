/**
 * Waits shared by the suites. A test waits for a condition, not for a time: `eventually` polls and
 * still fails when the condition never holds (the test's timeout, or `timeoutMs` when given, ends it).
 */

/** Resolves after `ms`. Only where the time itself is the behaviour (a deadline that must pass, a client that stays silent). */
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Polls `check` every `intervalMs` (50 by default) until it holds. Without `timeoutMs` the test's
 * own timeout bounds the wait; with it, the wait throws naming `what` (a function is read then, to
 * say what was seen last).
 */
export async function eventually(
  check: () => boolean | Promise<boolean>,
  opts: { intervalMs?: number; timeoutMs?: number; what?: string | (() => string) } = {},
): Promise<void> {
  const deadline = opts.timeoutMs === undefined ? Number.POSITIVE_INFINITY : Date.now() + opts.timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) {
      const what = typeof opts.what === 'function' ? opts.what() : opts.what;
      throw new Error(`timed out waiting for ${what ?? 'the condition'}`);
    }
    await sleep(opts.intervalMs ?? 50);
  }
}
