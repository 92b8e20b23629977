import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZAuctionInput, ZAuctionListQuery } from '../../../domain/auctions.js';

import type { AppContext } from '../../context.js';
import { currentUser, requireRole } from '../../http/auth-hooks.js';
import { requestContext } from '../../http/request-context.js';
import { auctionScope } from './policies.js';
import { countAuctions, listAuctions } from './queries.js';
import { createAuction, deleteAuction, describeAuction, getAuction, updateAuction } from './service.js';

const ZParams = z.object({ id: z.string().max(64) });
const ZCountsQuery = ZAuctionListQuery.pick({ search: true });
const panel = requireRole('admin', 'seller');
/** Writes per user: generous for a seller listing a batch, tight enough to stop a runaway script. */
const writeLimit = { max: 120, timeWindow: '1 minute', keyGenerator: (req: FastifyRequest) => req.user?.id ?? req.ip };

export async function auctionsRoutes(fastify: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, publisher } = ctx;

  app.get('/api/auctions', { preValidation: panel, schema: { querystring: ZAuctionListQuery } }, async (req) =>
    listAuctions(db, { scope: auctionScope(currentUser(req)), query: req.query }),
  );

  /** The filter buttons' counts alone (the list answers them too). */
  app.get('/api/auctions/counts', { preValidation: panel, schema: { querystring: ZCountsQuery } }, async (req) =>
    countAuctions(db, { scope: auctionScope(currentUser(req)), search: req.query.search }),
  );

  app.post('/api/auctions', { config: { rateLimit: writeLimit }, preValidation: panel, schema: { body: ZAuctionInput } }, async (req, reply) => {
    const context = requestContext(req);
    const { row, events } = await createAuction(db, { ...context, input: req.body });
    await publisher.publish(events);
    return reply.code(201).send(await describeAuction(db, { row, viewer: context.actor }));
  });

  app.get('/api/auctions/:id', { schema: { params: ZParams } }, async (req) => getAuction(db, { id: req.params.id, viewer: req.user }));

  app.put('/api/auctions/:id', { config: { rateLimit: writeLimit }, preValidation: panel, schema: { params: ZParams, body: ZAuctionInput } }, async (req) => {
    const context = requestContext(req);
    const { row, events } = await updateAuction(db, { ...context, id: req.params.id, input: req.body });
    await publisher.publish(events);
    return describeAuction(db, { row, viewer: context.actor });
  });

  app.delete('/api/auctions/:id', { config: { rateLimit: writeLimit }, preValidation: panel, schema: { params: ZParams } }, async (req) => {
    const { row, events } = await deleteAuction(db, { ...requestContext(req), id: req.params.id });
    await publisher.publish(events);
    return { id: row.id };
  });
}
