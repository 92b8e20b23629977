import type { FastifyRequest } from 'fastify';
import type { CurrentUser } from '../sessions/store.js';
import { currentUser } from './auth-hooks.js';

/**
 * Who acts and from where, built once per request from the signed-in user and handed to services,
 * which write it into the audit log. The request id ties an audit row to the request's log lines.
 */
export interface RequestContext {
  actor: CurrentUser;
  ip: string;
  requestId: string;
}

/**
 * What a service takes of the context: the actor it checks, and where the change came from for
 * the audit log (scripts, seeds and tests act with no address). Routes pass `...requestContext(req)`.
 */
export type Acting<A = CurrentUser> = { actor: A } & Partial<Pick<RequestContext, 'ip' | 'requestId'>>;

/** The context of a route guarded by requireAuth or requireRole (401 without a signed-in user). */
export function requestContext(req: FastifyRequest): RequestContext {
  return { actor: currentUser(req), ip: req.ip, requestId: String(req.id) };
}
