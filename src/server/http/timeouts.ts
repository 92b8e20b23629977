import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TimeoutsConfig } from '../config.js';
import { messages } from '../messages.js';
import { closeAfterReply } from './close.js';

/** Headers must arrive within this (or the request timeout, when shorter): a client trickling them is cut by Node. */
const HEADERS_TIMEOUT_MS = 20_000;
/** A connection on which nothing moves either way for this long is closed (a keep-alive one after keepAliveTimeout). */
const SOCKET_IDLE_TIMEOUT_MS = 60_000;
/** Above a load balancer's usual 60 s idle timeout, so it never reuses a connection we are closing. */
const KEEP_ALIVE_TIMEOUT_MS = 72_000;

/** Fastify's own server options: Node cuts any request still arriving after the longest (upload) deadline. */
export function serverTimeouts(timeouts: TimeoutsConfig) {
  return {
    requestTimeout: timeouts.uploadMs,
    connectionTimeout: SOCKET_IDLE_TIMEOUT_MS,
    keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
    // Node checks its request and headers deadlines this often (30 s by default).
    http: { headersTimeout: Math.min(HEADERS_TIMEOUT_MS, timeouts.requestMs), connectionsCheckingInterval: 5_000 },
  };
}

const hasBody = (req: FastifyRequest) => {
  const length = req.headers['content-length'];
  return (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
};

/**
 * Each request's body must be in within its deadline (uploads get the longer one): a slow client
 * gets 408 and its connection closes, so 2,000 trickling webhooks cannot hold the server's sockets.
 */
export function installBodyTimeout(app: FastifyInstance, timeouts: TimeoutsConfig, isUpload: (req: FastifyRequest) => boolean): void {
  app.addHook('onRequest', async (req, reply) => {
    if (!hasBody(req)) return;
    const raw = req.raw;
    const timer = setTimeout(
      () => {
        if (raw.complete || reply.sent) return;
        req.log.info({ url: req.url }, 'request body too slow: connection cut');
        closeAfterReply(req, reply);
        reply.code(408).send({ error: { code: 'REQUEST_TIMEOUT', message: messages.errors.requestTimeout } });
      },
      isUpload(req) ? timeouts.uploadMs : timeouts.requestMs,
    );
    timer.unref();
    reply.raw.once('close', () => clearTimeout(timer));
  });
}
