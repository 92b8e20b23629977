import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { BID_PAGE_DEFAULT, BID_PAGE_MAX, IDEMPOTENCY_KEY_MAX } from '../../../domain/bid-rules.js';
import { ZBidInput } from '../../../domain/bidding.js';
import { placeBid } from '../../bidding/place.js';
import type { AppContext } from '../../context.js';
import { currentUser, requireAuth } from '../../http/auth-hooks.js';
import { AppError } from '../../http/errors.js';
import { requestContext } from '../../http/request-context.js';
import { messages } from '../../messages.js';
import { bidHistory, buyNow } from './service.js';

const ZParams = z.object({ id: z.string().max(64) });
const ZHistoryQuery = z.object({
  limit: z.coerce.number().int().min(1).max(BID_PAGE_MAX).default(BID_PAGE_DEFAULT),
  before: z.coerce.number().int().min(1).optional(),
});

/**
 * Per bidder: a burst of 30 in 10 seconds is more than any person clicks, and stops a script
 * hammering one auction. Kept per server process, like the other write limits.
 */
const bidLimit = {
  max: 30,
  timeWindow: '10 seconds',
  keyGenerator: (req: FastifyRequest) => req.user?.id ?? req.ip,
  errorResponseBuilder: () => new AppError('RATE_LIMITED', messages.bidding.rateLimited),
};

/** The optional Idempotency-Key header: 1–100 visible ASCII characters, or absent. */
function idempotencyKey(req: FastifyRequest): string | null {
  const raw = req.headers['idempotency-key'];
  if (raw === undefined) return null;
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (!value || value.length > IDEMPOTENCY_KEY_MAX || !/^[\x21-\x7e]+$/.test(value)) {
    throw new AppError('VALIDATION', messages.bidding.idempotencyInvalid);
  }
  return value;
}

export async function bidsRoutes(fastify: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, publisher } = ctx;
  const { present, batcher } = ctx.bidding;

  app.get('/api/auctions/:id/bids', { schema: { params: ZParams, querystring: ZHistoryQuery } }, async (req) =>
    bidHistory(db, present, { auctionId: req.params.id, viewerId: req.user?.id ?? null, limit: req.query.limit, before: req.query.before ?? null }),
  );

  app.post(
    '/api/auctions/:id/bids',
    { config: { rateLimit: bidLimit }, preValidation: requireAuth, schema: { params: ZParams, body: ZBidInput } },
    async (req, reply) => {
      const placed = await placeBid(batcher, present, {
        auctionId: req.params.id,
        bidderId: currentUser(req).id,
        amount: req.body.amount,
        maxAmount: req.body.maxAmount ?? null,
        idempotencyKey: idempotencyKey(req),
      });
      await publisher.publish(placed.events);
      return reply.code(placed.answer.replayed ? 200 : 201).send(placed.answer);
    },
  );

  app.post('/api/auctions/:id/buy-now', { config: { rateLimit: bidLimit }, preValidation: requireAuth, schema: { params: ZParams } }, async (req) => {
    const bought = await buyNow(db, present, { ...requestContext(req), auctionId: req.params.id, idempotencyKey: idempotencyKey(req) });
    await publisher.publish(bought.events);
    return bought.answer;
  });
}
