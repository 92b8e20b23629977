import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';

/** A proxy's request id is taken only when it is a short plain token: it lands in logs, headers and the audit log. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * Fastify's genReqId: the id a trusted proxy (TRUST_PROXY) sent in X-Request-ID, so the proxy's log
 * and ours share it; otherwise a fresh UUID. Fastify's own default (req-1, req-2…) starts over at
 * each restart and on each instance, so it could not tell one audit row's request from another.
 * Without TRUST_PROXY anyone could pick the id that lands in the audit log, so the header is ignored.
 */
export function requestIdGenerator(trustProxy: boolean): (req: IncomingMessage) => string {
  return (req) => {
    const sent = trustProxy ? req.headers['x-request-id'] : undefined;
    return typeof sent === 'string' && SANE_REQUEST_ID.test(sent) ? sent : randomUUID();
  };
}

/**
 * Every response names its request in X-Request-ID: a user's complaint (or a browser's network
 * tab) gives the id, and the id finds the log lines (reqId) and audit rows (request_id) it made.
 * Set before any other hook can answer, so refusals and 404s carry it too.
 */
export function installRequestIdHeader(app: FastifyInstance): void {
  app.addHook('onRequest', async (req, reply) => {
    reply.header('x-request-id', req.id);
  });
}
