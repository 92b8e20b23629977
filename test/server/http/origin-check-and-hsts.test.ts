import { io } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isTrustedOrigin } from '../../../src/server/http/csrf.js';
import { messages } from '../../../src/server/messages.js';
import { startTestServer, type TestServer } from '../../support/server.js';
import { connected } from '../../support/sockets.js';

let server: TestServer;
let https: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  https = await startTestServer({ env: { PUBLIC_URL: 'https://subastas.example.mx' }, listen: false });
});
afterAll(async () => {
  await server?.close();
  await https?.close();
});

/** What a DNS-rebinding page at http://evil.example:<port> sends: its own name as both Host and Origin. */
const rebound = () => {
  const host = `evil.example:${new URL(server.url).port}`;
  return { host, origin: `http://${host}` };
};

const devSignIn = (headers: Record<string, string>) =>
  server.app.inject({ method: 'POST', url: '/auth/dev', headers, payload: { email: 'rebind@ejemplo.mx', name: 'Rebind' } });

/** Opens a socket with these handshake headers; resolves true when the server accepts it. */
async function handshake(headers: Record<string, string>): Promise<boolean> {
  const socket = io(server.url, { path: '/socket.io', transports: ['websocket'], reconnection: false, forceNew: true, extraHeaders: headers });
  try {
    await connected(socket);
    return true;
  } catch {
    return false;
  } finally {
    socket.close();
  }
}

describe('Origin check (DNS rebinding)', () => {
  it('trusts PUBLIC_URL’s origin only', () => {
    const publicUrl = new URL('http://localhost:3000');
    expect(isTrustedOrigin('http://localhost:3000', publicUrl)).toBe(true);
    for (const origin of ['http://127.0.0.1:3000', 'https://localhost:3000', 'http://localhost:3001', 'http://evil.example:3000', 'null']) {
      expect(isTrustedOrigin(origin, publicUrl)).toBe(false);
    }
  });

  it('refuses a POST whose Origin matches a forged Host', async () => {
    const res = await devSignIn(rebound());
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toEqual({ code: 'BAD_ORIGIN', message: messages.errors.badOrigin });
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('accepts a POST from PUBLIC_URL’s origin', async () => {
    const res = await devSignIn({ origin: server.url });
    expect(res.statusCode).toBe(200);
    expect(res.headers['set-cookie']).toBeDefined();
  });

  it('refuses a socket handshake whose Origin matches a forged Host, and accepts PUBLIC_URL’s', async () => {
    expect(await handshake(rebound())).toBe(false);
    expect(await handshake({ origin: 'https://evil.example' })).toBe(false);
    expect(await handshake({ origin: server.url })).toBe(true);
  });
});

describe('Strict-Transport-Security', () => {
  it('is on every response when PUBLIC_URL is https', async () => {
    for (const res of [
      await https.app.inject({ url: '/healthz' }),
      await https.app.inject({ url: '/api/nada' }),
      await https.app.inject({ method: 'POST', url: '/auth/dev', headers: { origin: 'https://evil.example' }, payload: {} }),
    ]) {
      expect(res.headers['strict-transport-security']).toBe('max-age=63072000; includeSubDomains');
    }
  });

  it('is absent when PUBLIC_URL is http', async () => {
    const res = await server.app.inject({ url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });
});
