import { ApiError, isApiError, NETWORK_ERROR_STATUS } from './client';

/** How long one press of 'Confirmar puja' may wait for its answer, retries included. */
export const BID_DEADLINE_MS = 10_000;
/** The pause before resending an attempt whose outcome is unknown, under the same key. */
export const BID_RETRY_DELAY_MS = 800;

/** Codes of the ApiErrors this module makes (status 0: no answer from the server). */
export const SEND_ERROR_CODES = {
  /** The browser was offline: nothing was sent. */
  offline: 'OFFLINE',
  /** No answer within the deadline: the server may or may not have it. */
  timeout: 'TIMEOUT',
} as const;

/**
 * Whether a failed call may have reached the server: no answer, a timeout, or a gateway error.
 * Retrying it with the same Idempotency-Key is safe; any other error is a definite refusal (and
 * 'offline' a definite "not sent"), and the next try is new.
 */
export function isUncertainFailure(error: unknown): boolean {
  if (!isApiError(error) || error.code === SEND_ERROR_CODES.offline) return false;
  return error.status === NETWORK_ERROR_STATUS || error.status === 502 || error.status === 503 || error.status === 504;
}

export interface DeadlineOptions {
  deadlineMs?: number;
  retryDelayMs?: number;
  /** navigator.onLine by default. */
  isOnline?: () => boolean;
}

const browserOnline = () => typeof navigator === 'undefined' || navigator.onLine !== false;

/**
 * Runs one bid attempt with a hard time limit. `request` gets an AbortSignal and may be called again
 * (same key: the caller's) while an unknown outcome leaves time for it; at the limit the request in
 * flight is aborted and the call rejects with TIMEOUT. Nothing is sent after that, ever: this
 * replaces TanStack's retries, which pause while the browser is offline or hidden and then resend a
 * bid by themselves, long after the bidder saw the price.
 */
export async function sendWithDeadline<T>(request: (signal: AbortSignal) => Promise<T>, opts: DeadlineOptions = {}): Promise<T> {
  const deadlineMs = opts.deadlineMs ?? BID_DEADLINE_MS;
  const retryDelayMs = opts.retryDelayMs ?? BID_RETRY_DELAY_MS;
  const isOnline = opts.isOnline ?? browserOnline;
  if (!isOnline()) throw new ApiError(NETWORK_ERROR_STATUS, SEND_ERROR_CODES.offline, 'Offline');

  const controller = new AbortController();
  const started = Date.now();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, deadlineMs);
  const timeoutError = () => new ApiError(NETWORK_ERROR_STATUS, SEND_ERROR_CODES.timeout, 'Timeout');
  try {
    for (;;) {
      try {
        return await request(controller.signal);
      } catch (error) {
        if (timedOut) throw timeoutError();
        // Offline now: a resend would fail too; the bidder decides once the connection is back.
        if (!isUncertainFailure(error) || !isOnline()) throw error;
        if (Date.now() - started + retryDelayMs >= deadlineMs) throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, retryDelayMs));
      if (timedOut) throw timeoutError();
    }
  } finally {
    clearTimeout(timer);
  }
}
