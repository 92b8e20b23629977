import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { MyPurchases } from '../../../../domain/purchases.js';
import type { AppContext } from '../../../context.js';
import { currentUser, requireAuth } from '../../../http/auth-hooks.js';
import { presentPurchases } from './presenters.js';
import { readPurchases } from './queries.js';

/** Per buyer: a page opened and refreshed by hand, with room to spare; a script reading in a loop stops here. */
const readLimit = { max: 60, timeWindow: '1 minute', keyGenerator: (req: FastifyRequest) => req.user?.id ?? req.ip };

/** 'Mis compras': the signed-in buyer's own wins, bills and second-chance offers. */
export async function purchasesRoutes(fastify: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db } = ctx;

  app.get('/api/me/purchases', { config: { rateLimit: readLimit }, preValidation: requireAuth }, async (req): Promise<MyPurchases> => {
    const user = currentUser(req);
    return presentPurchases(await readPurchases(db, user.id), new Date());
  });
}
