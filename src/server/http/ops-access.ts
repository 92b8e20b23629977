import { createHash, timingSafeEqual } from 'node:crypto';
import { BlockList, isIP } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { OpsConfig } from '../config.js';

/** Headers a reverse proxy adds: a request carrying one came through a proxy. */
const FORWARDING_HEADERS = ['x-forwarded-for', 'forwarded', 'x-real-ip'] as const;

export interface OpsAccess {
  /** Whether the request comes from this machine or an allowed address, or carries the token. */
  allows(req: FastifyRequest): boolean;
  /** An onRequest hook: everyone else gets the 404 of a path that does not exist. */
  guard(req: FastifyRequest, reply: FastifyReply): Promise<unknown>;
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/** '::ffff:10.0.0.7' is the IPv4 address 10.0.0.7 on a dual-stack socket. */
function plainAddress(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped?.[1] ?? address;
}

function rangeList(entries: readonly string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries) {
    const [address = '', prefix] = entry.split('/');
    const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(prefix), type);
  }
  return list;
}

/**
 * Who may read what only the operators need (/metrics, /api/openapi.json, the source maps when
 * served): the request's address as the server reads it (`req.ip`: the socket's peer, or with
 * TRUST_PROXY the proxy's X-Forwarded-For) is on this machine or in METRICS_ALLOW, or the request
 * carries `Authorization: Bearer <METRICS_TOKEN>`. Without TRUST_PROXY, a request that carries a
 * proxy's forwarding header is let in by the token only: its peer is a proxy the server was not
 * told about (on this machine, most often), and the client behind it could be anyone.
 */
export function createOpsAccess(ops: OpsConfig, trustProxy: boolean): OpsAccess {
  const allowed = rangeList(['127.0.0.0/8', '::1', ...ops.allow]);
  const token = ops.token === null ? null : digest(ops.token);

  const addressAllowed = (req: FastifyRequest): boolean => {
    if (!trustProxy && FORWARDING_HEADERS.some((name) => req.headers[name] !== undefined)) return false;
    const address = plainAddress(req.ip);
    const family = isIP(address);
    return family !== 0 && allowed.check(address, family === 6 ? 'ipv6' : 'ipv4');
  };

  const tokenSent = (req: FastifyRequest): boolean => {
    if (token === null) return false;
    const sent = /^Bearer +(\S+) *$/i.exec(req.headers.authorization ?? '')?.[1];
    // Equal-length digests, compared in constant time: the answer's timing says nothing of the token.
    return sent !== undefined && timingSafeEqual(digest(sent), token);
  };

  const allows = (req: FastifyRequest) => tokenSent(req) || addressAllowed(req);
  return {
    allows,
    async guard(req, reply) {
      if (allows(req)) return;
      req.log.debug({ ip: req.ip, url: req.url }, 'operators-only path refused');
      reply.callNotFound();
      return reply;
    },
  };
}
