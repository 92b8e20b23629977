import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OAuth2Server } from 'oauth2-mock-server';

export interface MockIdentity {
  sub?: string;
  email: string;
  name?: string;
  given_name?: string;
  family_name?: string;
  email_verified?: boolean;
}

export interface MockGoogle {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The identity the next authorization signs in as (HTTP tests, no chooser page). */
  setNextIdentity(identity: MockIdentity): void;
  /** Alters the next ID token's claims before signing (e.g. a wrong nonce). */
  tamperNextToken(fn: (claims: Record<string, unknown>) => void): void;
  stop(): Promise<void>;
}

/**
 * A Google-style OpenID Connect issuer for tests: oauth2-mock-server signs real tokens, and each
 * authorization code is bound to the identity chosen for it. With `chooser`, the authorize step
 * shows an account-choice page (like Google's) where a browser types its email and name.
 */
export async function startMockGoogle(opts: { chooser?: boolean } = {}): Promise<MockGoogle> {
  const server = new OAuth2Server();
  await server.issuer.keys.generate('RS256');
  await server.start(0, '127.0.0.1');
  const issuer = server.issuer.url as string;
  const byCode = new Map<string, MockIdentity>();
  let next: MockIdentity = { email: 'ana.lopez@gmail.com', name: 'Ana López', given_name: 'Ana', family_name: 'López' };
  let tamper: ((claims: Record<string, unknown>) => void) | null = null;
  let chooser: Server | null = null;
  let chooserUrl = '';

  if (opts.chooser) {
    chooser = createServer((req, res) => {
      const url = new URL(req.url ?? '/', chooserUrl);
      const target = url.searchParams.get('target') ?? '';
      const code = url.searchParams.get('code') ?? '';
      if (url.pathname === '/choose' && url.searchParams.get('email')) {
        const name = url.searchParams.get('name') || 'Usuario Prueba';
        const [given, ...family] = name.split(' ');
        byCode.set(code, { email: url.searchParams.get('email') as string, name, given_name: given, family_name: family.join(' ') || undefined });
        res.writeHead(302, { location: target }).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><title>Sign in - Google Accounts</title>
<h1>Choose an account</h1>
<form method="get" action="/choose">
<input type="hidden" name="target" value="${target.replace(/"/g, '&quot;')}"><input type="hidden" name="code" value="${code}">
<label>Email <input name="email" type="email"></label><label>Name <input name="name"></label>
<button type="submit">Continue</button></form>`);
    });
    await new Promise<void>((resolve) => chooser?.listen(0, '127.0.0.1', resolve));
    chooserUrl = `http://127.0.0.1:${(chooser.address() as AddressInfo).port}`;
  }

  server.service.on('beforeAuthorizeRedirect', (redirect: { url: URL }) => {
    const code = redirect.url.searchParams.get('code');
    if (!code) return;
    if (chooser) {
      const page = new URL('/account', chooserUrl);
      page.searchParams.set('code', code);
      page.searchParams.set('target', redirect.url.href);
      // The mock redirects with this very URL object, so it is changed in place.
      redirect.url.href = page.href;
    } else {
      byCode.set(code, next);
    }
  });

  server.service.on('beforeTokenSigning', (token: { payload: Record<string, unknown> }, req: { body?: Record<string, unknown> }) => {
    const code = typeof req.body?.code === 'string' ? req.body.code : undefined;
    const identity = code ? byCode.get(code) : undefined;
    if (!identity) return;
    Object.assign(token.payload, {
      sub: identity.sub ?? `google-${identity.email}`,
      email: identity.email,
      email_verified: identity.email_verified ?? true,
      name: identity.name,
      given_name: identity.given_name,
      family_name: identity.family_name,
    });
    // ID tokens carry `aud`; access tokens from this mock do not, and are left alone.
    if (tamper && token.payload.aud) {
      tamper(token.payload);
      tamper = null;
    }
  });

  return {
    issuer,
    clientId: `test-client-${randomUUID().slice(0, 8)}`,
    clientSecret: 'test-secret',
    setNextIdentity: (identity) => {
      next = identity;
    },
    tamperNextToken: (fn) => {
      tamper = fn;
    },
    async stop() {
      await server.stop();
      if (chooser) await new Promise((resolve) => chooser?.close(resolve));
    },
  };
}
