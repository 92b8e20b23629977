import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZFutureShowInput, ZMyUnpaidQuery } from '../../../../domain/unpaid.js';
import type { AppContext } from '../../../context.js';
import { currentUser, requireAuth, requireRole } from '../../../http/auth-hooks.js';
import { AppError } from '../../../http/errors.js';
import { requestContext } from '../../../http/request-context.js';
import { messages } from '../../../messages.js';
import { companyOfAuction, listExpired, listStrikes, myUnpaid } from './queries.js';
import { acceptOffer, declineOffer, liftStrikes, offerSecondChance, releaseLot, sendToFutureShow } from './service.js';

/**
 * When a buyer does not pay: the seller's "Cuentas vencidas" (expired bills and the choice for each
 * lot), the struck buyers, the runner-up's answer to a Segunda oportunidad, and a buyer's warning.
 */

const panel = requireRole('admin', 'seller');
const writeLimit = { max: 60, timeWindow: '1 minute', keyGenerator: (req: FastifyRequest) => req.user?.id ?? req.ip };
const ZLotParams = z.object({ paymentId: z.uuid({ error: 'invalid' }), auctionId: z.uuid({ error: 'invalid' }) });
const ZOfferParams = z.object({ offerId: z.uuid({ error: 'invalid' }) });
const ZUserParams = z.object({ userId: z.uuid({ error: 'invalid' }) });

export async function unpaidRoutes(fastify: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, publisher } = ctx;
  const { provider, accounts } = ctx.payments;
  const present = ctx.bidding.present;

  app.get('/api/unpaid/expired', { preValidation: panel }, async (req) => listExpired(db, currentUser(req)));

  app.post(
    '/api/unpaid/expired/:paymentId/lots/:auctionId/second-chance',
    { config: { rateLimit: writeLimit }, preValidation: panel, schema: { params: ZLotParams } },
    async (req) => {
      const done = await offerSecondChance(db, { ...requestContext(req), provider, accounts, log: req.log, isCloudOn: ctx.whatsapp !== null, ...req.params });
      await publisher.publish(done.events);
      return { decision: done.decision, paymentId: done.paymentId ?? null, paymentLinkUrl: done.link ?? null };
    },
  );

  app.post(
    '/api/unpaid/expired/:paymentId/lots/:auctionId/future-show',
    { config: { rateLimit: writeLimit }, preValidation: panel, schema: { params: ZLotParams, body: ZFutureShowInput } },
    async (req) => {
      const done = await sendToFutureShow(db, { ...requestContext(req), present, ...req.params, sessionId: req.body.sessionId });
      await publisher.publish(done.events);
      return { decision: done.decision };
    },
  );

  app.post(
    '/api/unpaid/expired/:paymentId/lots/:auctionId/release',
    { config: { rateLimit: writeLimit }, preValidation: panel, schema: { params: ZLotParams } },
    async (req) => ({ decision: (await releaseLot(db, { ...requestContext(req), ...req.params })).decision }),
  );

  app.get('/api/unpaid/strikes', { preValidation: panel }, async (req) => listStrikes(db, currentUser(req)));

  app.post('/api/unpaid/strikes/:userId/lift', { config: { rateLimit: writeLimit }, preValidation: panel, schema: { params: ZUserParams } }, async (req) => {
    const done = await liftStrikes(db, { ...requestContext(req), userId: req.params.userId });
    await publisher.publish(done.events);
    return { lifted: true };
  });

  // ── The runner-up's answer, and the buyer's warning ──

  app.post(
    '/api/second-chance/:offerId/accept',
    { config: { rateLimit: writeLimit }, preValidation: requireAuth, schema: { params: ZOfferParams } },
    async (req) => acceptOffer(db, { actor: currentUser(req), offerId: req.params.offerId }),
  );

  app.post(
    '/api/second-chance/:offerId/decline',
    { config: { rateLimit: writeLimit }, preValidation: requireAuth, schema: { params: ZOfferParams } },
    async (req) => {
      const done = await declineOffer(db, { ...requestContext(req), provider, accounts, log: req.log, offerId: req.params.offerId });
      await publisher.publish(done.events);
      return { declined: true };
    },
  );

  app.get('/api/me/unpaid', { preValidation: requireAuth, schema: { querystring: ZMyUnpaidQuery } }, async (req) => {
    const companyId = req.query.companyId ?? (await companyOfAuction(db, req.query.auctionId as string));
    if (!companyId) throw new AppError('NOT_FOUND', messages.errors.notFound);
    return myUnpaid(db, { userId: currentUser(req).id, companyId });
  });
}
