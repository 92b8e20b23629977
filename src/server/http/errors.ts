import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { messages } from '../messages.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A route's own words for its schemas' field codes, read before the shared `messages.fields` (the Live Hub's). */
    fieldMessages?: Record<string, string>;
  }
}

export type AppErrorCode =
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'VALIDATION'
  | 'CONFLICT'
  | 'RATE_LIMITED'
  | 'BAD_ORIGIN'
  // Bidding (src/domain/bidding.ts BID_ERROR_CODES).
  | 'BID_TOO_LOW'
  | 'AUCTION_CLOSED'
  | 'BUY_NOW_UNAVAILABLE'
  | 'OWN_AUCTION'
  | 'PROFILE_INCOMPLETE'
  // Live chat and moderation (src/domain/chat.ts CHAT_REFUSALS); BUYER_BLOCKED refuses bids too.
  | 'CHAT_MUTED'
  | 'CHAT_SLOW_MODE'
  | 'CHAT_RATE_LIMITED'
  | 'CHAT_ADDRESS_LIMITED'
  | 'CHAT_DUPLICATE'
  | 'BUYER_BLOCKED'
  // Payments: the provider could not be reached (the caller may retry).
  | 'PROVIDER_UNAVAILABLE'
  // Live video: the video service cannot be reached now (the browser retries).
  | 'VIDEO_UNAVAILABLE'
  // Live Hub: the route would open an ended session again, and the seller has not confirmed it.
  | 'SESSION_ENDED'
  // A signed address (a clip's) that ran out: asked again from the page it came from.
  | 'LINK_EXPIRED'
  // A video's Range that starts past its end or is not a byte range.
  | 'RANGE_NOT_SATISFIABLE';

const STATUS: Record<AppErrorCode, number> = {
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  VALIDATION: 400,
  CONFLICT: 409,
  RATE_LIMITED: 429,
  BAD_ORIGIN: 403,
  BID_TOO_LOW: 409,
  AUCTION_CLOSED: 409,
  BUY_NOW_UNAVAILABLE: 409,
  OWN_AUCTION: 403,
  PROFILE_INCOMPLETE: 403,
  CHAT_MUTED: 403,
  CHAT_SLOW_MODE: 429,
  CHAT_RATE_LIMITED: 429,
  CHAT_ADDRESS_LIMITED: 429,
  CHAT_DUPLICATE: 409,
  BUYER_BLOCKED: 403,
  PROVIDER_UNAVAILABLE: 502,
  VIDEO_UNAVAILABLE: 503,
  SESSION_ENDED: 409,
  LINK_EXPIRED: 410,
  RANGE_NOT_SATISFIABLE: 416,
};

/** A failure the client should see: the status comes from the code, the message is Spanish. */
export class AppError extends Error {
  readonly statusCode: number;
  constructor(
    readonly code: AppErrorCode,
    message: string,
    readonly fields?: Record<string, string>,
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
    this.statusCode = STATUS[code];
  }
}

const fieldMessages: Record<string, string> = messages.fields;

/** Maps a Zod issue to Spanish: our schemas put catalogue keys in `message`; Zod's own issues get a generic text. */
export function fieldMessage(issue: { code?: string; message: string }): string {
  if (fieldMessages[issue.message]) return fieldMessages[issue.message] as string;
  if (issue.code === 'invalid_type') return messages.fields.required;
  return messages.fields.invalid;
}

export function fieldsFromIssues(
  issues: readonly { path: readonly PropertyKey[]; code?: string; message: string }[],
  own: Record<string, string> = {},
): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of issues) {
    const key = issue.path.map(String).join('.') || '_';
    const word = Object.hasOwn(own, issue.message) ? own[issue.message] : undefined;
    fields[key] ??= word ?? fieldMessage(issue);
  }
  return fields;
}

/** Every error leaves as `{ error: { code, message } }`; nothing internal reaches the client. */
export function installErrorHandler(app: FastifyInstance): void {
  app.setNotFoundHandler((_req, reply) => {
    reply.code(404).send({ error: { code: 'NOT_FOUND', message: messages.errors.notFound } });
  });
  app.setErrorHandler((err: FastifyError, req, reply) => {
    if (err instanceof AppError) {
      return reply.code(err.statusCode).send({ error: { code: err.code, message: err.message, ...(err.fields ? { fields: err.fields } : {}), ...err.extra } });
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const fields = fieldsFromIssues(
        err.validation.map((v) => ({ path: v.instancePath.split('/').filter(Boolean), code: v.keyword, message: v.message ?? '' })),
        req.routeOptions.config.fieldMessages,
      );
      return reply.code(400).send({ error: { code: 'VALIDATION', message: messages.errors.validation, fields } });
    }
    const status = err.statusCode ?? 500;
    if (status === 429) return reply.code(429).send({ error: { code: 'RATE_LIMITED', message: messages.errors.rateLimited } });
    if (status === 413) return reply.code(413).send({ error: { code: 'PAYLOAD_TOO_LARGE', message: messages.errors.payloadTooLarge } });
    if (status === 415) return reply.code(415).send({ error: { code: 'UNSUPPORTED_MEDIA', message: messages.errors.unsupportedMedia } });
    if (status === 400 && err.code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
      return reply.code(400).send({ error: { code: 'INVALID_JSON', message: messages.errors.invalidJson } });
    }
    if (status >= 400 && status < 500) {
      return reply.code(status).send({ error: { code: 'BAD_REQUEST', message: messages.errors.badRequest } });
    }
    req.log.error({ err }, 'request failed');
    return reply.code(500).send({ error: { code: 'INTERNAL', message: messages.errors.internal } });
  });
}

/**
 * What Fastify answers before any route or error handler runs (a path that is not valid
 * percent-encoded UTF-8, a path parameter over the router's length): the product's format, in
 * Spanish, without echoing the URL. Passed to Fastify's constructor as `frameworkErrors`.
 */
export function frameworkErrors(err: FastifyError, req: FastifyRequest, reply: FastifyReply): void {
  if (err.code === 'FST_ERR_BAD_URL') {
    reply.code(400).send({ error: { code: 'BAD_URL', message: messages.errors.badUrl } });
    return;
  }
  if (err.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    reply.code(414).send({ error: { code: 'URL_TOO_LONG', message: messages.errors.urlTooLong } });
    return;
  }
  req.log.error({ err }, 'request failed before routing');
  reply.code(500).send({ error: { code: 'INTERNAL', message: messages.errors.internal } });
}

/**
 * What Node's HTTP parser refuses (headers over its limit, a malformed request line or header,
 * headers that never finished arriving): answered on the raw socket, in the same format, then closed.
 * Passed to Fastify's constructor as `clientErrorHandler`.
 */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket): void {
  // A reset connection has no one left to answer (Node's own rule).
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, reason, code, message] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', 'HEADERS_TOO_LARGE', messages.errors.headersTooLarge]
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', 'REQUEST_TIMEOUT', messages.errors.requestTimeout]
        : [400, 'Bad Request', 'BAD_REQUEST', messages.errors.badRequest];
  const body = JSON.stringify({ error: { code, message } });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}
