import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Role } from '../../domain/role-rules.js';
import type { Db } from '../db/connect.js';
import { messages } from '../messages.js';
import type { SessionCache } from '../sessions/cache.js';
import { type CurrentUser, SESSION_COOKIE } from '../sessions/store.js';
import { AppError } from './errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user, or null. Loaded for /api and /auth requests. */
    user: CurrentUser | null;
  }
}

const SESSION_PATHS = /^\/(api|auth)(\/|$)/;

export function installSessionLoader(app: FastifyInstance, db: Db, secret: string, sessions: SessionCache): void {
  app.decorateRequest('user', null);
  app.addHook('onRequest', async (req) => {
    if (!SESSION_PATHS.test(req.url)) return;
    req.user = await sessions.resolve(db, req.cookies[SESSION_COOKIE], secret);
  });
}

/** preHandler: a signed-in user, or 401. */
export async function requireAuth(req: FastifyRequest, _reply: FastifyReply): Promise<void> {
  if (!req.user) throw new AppError('UNAUTHENTICATED', messages.errors.unauthenticated);
}

/** preHandler: a signed-in user holding one of these roles, or 401/403. */
export function requireRole(...roles: Role[]) {
  return async function requireRoleHandler(req: FastifyRequest, reply: FastifyReply): Promise<void> {
    await requireAuth(req, reply);
    if (!req.user?.roles.some((r) => roles.includes(r))) throw new AppError('FORBIDDEN', messages.errors.forbidden);
  };
}

/** The user of a route guarded by requireAuth or requireRole. */
export function currentUser(req: FastifyRequest): CurrentUser {
  if (!req.user) throw new AppError('UNAUTHENTICATED', messages.errors.unauthenticated);
  return req.user;
}
