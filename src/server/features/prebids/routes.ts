import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZPrebidInput } from '../../../domain/prebids.js';
import type { AppContext } from '../../context.js';
import { requireAuth } from '../../http/auth-hooks.js';
import { AppError } from '../../http/errors.js';
import { requestContext } from '../../http/request-context.js';
import { messages } from '../../messages.js';
import { placePrebid, prebidStatus, sessionPrebids, withdrawPrebid } from './service.js';

const ZParams = z.object({ id: z.string().max(64) });
const prebidFields = { fieldMessages: messages.prebids.fields };
/** Per buyer: far more than a person leaving maximums on a show's lots, few enough to stop a script. */
const writeLimit = {
  max: 60,
  timeWindow: '1 minute',
  keyGenerator: (req: FastifyRequest) => req.user?.id ?? req.ip,
  errorResponseBuilder: () => new AppError('RATE_LIMITED', messages.bidding.rateLimited),
};

/** 'Puja anticipada' on a show's lots (domain/prebids.ts); the opening is enter.ts, run by the Live Hub's timer. */
export async function prebidsRoutes(fastify: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db } = ctx;

  app.get('/api/auctions/:id/prebids/mine', { schema: { params: ZParams } }, async (req) =>
    prebidStatus(db, { auctionId: req.params.id, viewerId: req.user?.id ?? null }),
  );

  app.get('/api/live-sessions/:id/prebids/mine', { schema: { params: ZParams } }, async (req) =>
    sessionPrebids(db, { sessionId: req.params.id, viewerId: req.user?.id ?? null }),
  );

  app.post(
    '/api/auctions/:id/prebids',
    { config: { rateLimit: writeLimit, ...prebidFields }, preValidation: requireAuth, schema: { params: ZParams, body: ZPrebidInput } },
    async (req, reply) => {
      const placed = await placePrebid(db, { ...requestContext(req), auctionId: req.params.id, maxAmount: req.body.maxAmount });
      return reply.code(placed.created ? 201 : 200).send(placed.answer);
    },
  );

  app.delete(
    '/api/auctions/:id/prebids/mine',
    { config: { rateLimit: writeLimit }, preValidation: requireAuth, schema: { params: ZParams } },
    async (req, reply) => {
      await withdrawPrebid(db, { ...requestContext(req), auctionId: req.params.id });
      return reply.code(204).send();
    },
  );
}
