import { afterEach, describe, expect, it, vi } from 'vitest';
import { isUncertainFailure, newIdempotencyKey, stateFromError } from '../../../src/web/api/bids';
import { ApiError, apiRequest, toApiError } from '../../../src/web/api/client';

afterEach(() => {
  vi.unstubAllGlobals();
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('bid requests', () => {
  it('send the Idempotency-Key header with the JSON body', async () => {
    const fetchMock = vi.fn(async () => new Response('{}', { status: 201 }));
    vi.stubGlobal('fetch', fetchMock);
    await apiRequest('/api/auctions/x/bids', { method: 'POST', body: { amount: 520 }, headers: { 'Idempotency-Key': 'k-1' } });
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/auctions/x/bids',
      expect.objectContaining({
        headers: { Accept: 'application/json', 'Idempotency-Key': 'k-1', 'Content-Type': 'application/json' },
        body: '{"amount":520}',
      }),
    );
  });

  it('keep the state a 409 carries, so the page shows the new price at once', () => {
    const state = { id: 'a', version: 7, currentPrice: 900, nextMinimum: 920 };
    const error = toApiError(409, { error: { code: 'BID_TOO_LOW', message: 'Alguien pujó antes que tú.', state } });
    expect(error).toMatchObject({ status: 409, code: 'BID_TOO_LOW', message: 'Alguien pujó antes que tú.' });
    expect(stateFromError(error)).toEqual(state);
    expect(stateFromError(toApiError(400, { error: { code: 'VALIDATION', message: 'x', fields: { amount: 'y' } } }))).toBeNull();
    expect(stateFromError(new Error('boom'))).toBeNull();
  });

  it('retry with the same key only when the outcome is unknown', () => {
    expect(isUncertainFailure(new ApiError(0, 'NETWORK', 'Network error'))).toBe(true);
    expect(isUncertainFailure(new ApiError(503, 'HTTP_503', 'HTTP 503'))).toBe(true);
    for (const status of [400, 401, 403, 409, 429, 500]) expect(isUncertainFailure(new ApiError(status, 'X', 'x'))).toBe(false);
  });
});

describe('newIdempotencyKey', () => {
  it('makes a fresh v4 UUID each time', () => {
    const a = newIdempotencyKey();
    expect(a).toMatch(UUID);
    expect(newIdempotencyKey()).not.toBe(a);
  });

  it('still makes one where crypto.randomUUID is missing (plain http outside localhost)', () => {
    const real = globalThis.crypto;
    vi.stubGlobal('crypto', { getRandomValues: (b: Uint8Array<ArrayBuffer>) => real.getRandomValues(b) });
    expect(globalThis.crypto.randomUUID).toBeUndefined();
    const keys = new Set(Array.from({ length: 50 }, () => newIdempotencyKey()));
    expect(keys.size).toBe(50);
    for (const key of keys) expect(key).toMatch(UUID);
  });
});
