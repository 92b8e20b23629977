import type { FastifyInstance } from 'fastify';
import { messages } from '../messages.js';
import { AppError } from './errors.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Provider webhooks come from other sites by design and carry no cookie; their signature protects them. */
const EXEMPT = /^\/api\/webhooks\//;

/**
 * An Origin is trusted only when it is PUBLIC_URL's. Never `{protocol}://{Host}`: a DNS-rebinding
 * page at http://evil.example:3000 sends a matching Host and Origin, so the Host proves nothing.
 */
export function isTrustedOrigin(origin: string, publicUrl: URL): boolean {
  return origin === publicUrl.origin;
}

/**
 * CSRF: the session cookie is SameSite=Lax, and every state-changing request from a browser must
 * come from this site: its Origin is PUBLIC_URL's, and Sec-Fetch-Site is not cross-site. Clients
 * that send neither header (curl, servers) carry no ambient cookie risk.
 */
export function installOriginCheck(app: FastifyInstance, publicUrl: URL): void {
  app.addHook('onRequest', async (req) => {
    if (SAFE_METHODS.has(req.method) || EXEMPT.test(req.url)) return;
    const fetchSite = req.headers['sec-fetch-site'];
    if (fetchSite === 'cross-site') throw new AppError('BAD_ORIGIN', messages.errors.badOrigin);
    const origin = req.headers.origin;
    if (origin && !isTrustedOrigin(origin, publicUrl)) throw new AppError('BAD_ORIGIN', messages.errors.badOrigin);
  });
}
