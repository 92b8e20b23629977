import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BID_DEADLINE_MS, isUncertainFailure, SEND_ERROR_CODES, sendWithDeadline } from '../../../src/web/api/bid-deadline';
import { ApiError } from '../../../src/web/api/client';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

const online = () => true;
/** A request that never answers until its signal aborts it, as fetch does. */
const hanging = (signal: AbortSignal) =>
  new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));

describe('sendWithDeadline', () => {
  it('sends nothing while the browser is offline, and says so for sure', async () => {
    const request = vi.fn(async () => 'ok');
    const error = await sendWithDeadline(request, { isOnline: () => false }).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 0, code: SEND_ERROR_CODES.offline });
    expect(isUncertainFailure(error)).toBe(false);
    expect(request).not.toHaveBeenCalled();
  });

  it('gives up at the limit with TIMEOUT, and never sends again after it', async () => {
    const request = vi.fn(hanging);
    const result = sendWithDeadline(request, { isOnline: online }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(BID_DEADLINE_MS);
    const error = await result;
    expect(error).toMatchObject({ status: 0, code: SEND_ERROR_CODES.timeout });
    expect(isUncertainFailure(error)).toBe(true);
    const [signal] = request.mock.calls[0] ?? [];
    expect(signal?.aborted).toBe(true);
    // A minute later, back online: still the one request.
    await vi.advanceTimersByTimeAsync(60_000);
    expect(request).toHaveBeenCalledTimes(1);
  });

  it('resends an unknown outcome within the limit only, and stops when a resend could not arrive', async () => {
    const request = vi.fn(async () => {
      throw new ApiError(0, 'NETWORK', 'Network error');
    });
    const result = sendWithDeadline(request, { isOnline: online, retryDelayMs: 800 }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(BID_DEADLINE_MS * 3);
    expect(await result).toMatchObject({ code: 'NETWORK' });
    const calls = request.mock.calls.length;
    expect(calls).toBeGreaterThan(1);
    expect(calls).toBeLessThanOrEqual(Math.ceil(BID_DEADLINE_MS / 800));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(request).toHaveBeenCalledTimes(calls);

    let onlineNow = true;
    const offlineSoon = vi.fn(async () => {
      onlineNow = false;
      throw new ApiError(0, 'NETWORK', 'Network error');
    });
    const second = sendWithDeadline(offlineSoon, { isOnline: () => onlineNow }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(BID_DEADLINE_MS);
    expect(await second).toMatchObject({ code: 'NETWORK' });
    expect(offlineSoon).toHaveBeenCalledTimes(1);
  });

  it('passes a refusal through at once and a success as is', async () => {
    const refused = vi.fn(async () => {
      throw new ApiError(409, 'BID_TOO_LOW', 'Alguien pujó antes que tú.');
    });
    await expect(sendWithDeadline(refused, { isOnline: online })).rejects.toMatchObject({ status: 409 });
    expect(refused).toHaveBeenCalledTimes(1);
    await expect(sendWithDeadline(async () => 'answer', { isOnline: online })).resolves.toBe('answer');
  });
});
