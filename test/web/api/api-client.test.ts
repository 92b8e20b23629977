import { afterEach, describe, expect, it, vi } from 'vitest';
import { signInUrl } from '../../../src/web/api/auth';
import { ApiError, apiRequest, NETWORK_ERROR_STATUS, toApiError } from '../../../src/web/api/client';
import { shouldRetry } from '../../../src/web/api/query-client';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('toApiError', () => {
  it('carries the server error body: status, code, Spanish message and field messages', () => {
    const error = toApiError(400, {
      error: { code: 'VALIDATION', message: 'Revisa los datos marcados.', fields: { lastName: 'Escribe tu apellido.' } },
    });
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, code: 'VALIDATION', message: 'Revisa los datos marcados.' });
    expect(error.fields).toEqual({ lastName: 'Escribe tu apellido.' });
  });

  it('still gives an error for a body that is not ours', () => {
    expect(toApiError(502, '<html>Bad gateway</html>')).toMatchObject({ status: 502, code: 'HTTP_502', fields: {} });
  });
});

describe('apiRequest', () => {
  it('sends JSON with the session cookie and parses the answer', async () => {
    const fetchMock = vi.fn(async () => new Response(JSON.stringify({ ok: true }), { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    await expect(apiRequest('/api/profile', { method: 'PUT', body: { lastName: 'G' } })).resolves.toEqual({ ok: true });
    expect(fetchMock).toHaveBeenCalledWith('/api/profile', {
      method: 'PUT',
      headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
      body: '{"lastName":"G"}',
      credentials: 'same-origin',
      signal: undefined,
    });
  });

  it('accepts an empty answer (204)', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(null, { status: 204 })),
    );
    await expect(apiRequest('/auth/logout', { method: 'POST' })).resolves.toBeNull();
  });

  it('throws an ApiError with the server message on a non-OK status', async () => {
    const body = { error: { code: 'UNAUTHENTICATED', message: 'Inicia sesión para continuar.' } };
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify(body), { status: 401 })),
    );
    await expect(apiRequest('/api/me')).rejects.toMatchObject({ status: 401, code: 'UNAUTHENTICATED' });
  });

  it('turns a failed connection into a network ApiError', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    await expect(apiRequest('/api/me')).rejects.toMatchObject({ status: NETWORK_ERROR_STATUS, code: 'NETWORK' });
  });
});

describe('shouldRetry', () => {
  it('never retries a client error, retries others twice', () => {
    expect(shouldRetry(0, new ApiError(404, 'NOT_FOUND', 'x'))).toBe(false);
    expect(shouldRetry(0, new ApiError(500, 'INTERNAL', 'x'))).toBe(true);
    expect(shouldRetry(1, new ApiError(NETWORK_ERROR_STATUS, 'NETWORK', 'x'))).toBe(true);
    expect(shouldRetry(2, new ApiError(503, 'UNAVAILABLE', 'x'))).toBe(false);
  });
});

describe('signInUrl', () => {
  it('returns to the current page after sign-in', () => {
    expect(signInUrl('/admin/livehub?x=1')).toBe('/auth/google?returnTo=%2Fadmin%2Flivehub%3Fx%3D1');
  });

  it('never returns to another site', () => {
    expect(signInUrl('//evil.example/admin')).toBe('/auth/google?returnTo=%2Fadmin');
    expect(signInUrl('https://evil.example')).toBe('/auth/google?returnTo=%2Fadmin');
  });
});
