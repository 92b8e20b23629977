import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type ShowBillAnswer, type ShowBillOverview, type ShowLinksAnswer, ZShippingRulesInput } from '../../../../domain/show-billing.js';
import type { AppContext } from '../../../context.js';
import { currentUser, requireRole } from '../../../http/auth-hooks.js';
import { AppError } from '../../../http/errors.js';
import { requestContext } from '../../../http/request-context.js';
import { messages } from '../../../messages.js';
import { paymentScope } from '../bills/policies.js';
import { previewOf, showPayments, unbilledGroups } from './queries.js';
import { billShow, makeLinks, readShipping, setShipping } from './service.js';

const ZParams = z.object({ id: z.string().max(64) });
const panel = requireRole('admin', 'seller');
const writeLimit = {
  max: 60,
  timeWindow: '1 minute',
  keyGenerator: (req: FastifyRequest) => req.user?.id ?? req.ip,
  errorResponseBuilder: () => new AppError('RATE_LIMITED', messages.errors.rateLimited),
};
const fields = { fieldMessages: { ...messages.live.fields, ...messages.showBilling.fields } };

/**
 * Billing the whole show from the Live Hub: its shipping rules, 'Cobrar el show' and 'Generar
 * enlaces'. Only the session's editor; anyone else gets 'Sesión no encontrada' (404).
 */
export async function showBillingRoutes(fastify: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, publisher } = ctx;
  const { provider, accounts } = ctx.payments;

  app.get('/api/live-sessions/:id/shipping', { config: fields, preValidation: panel, schema: { params: ZParams } }, async (req) =>
    readShipping(db, { actor: currentUser(req), id: req.params.id }),
  );

  app.put(
    '/api/live-sessions/:id/shipping',
    { config: { ...fields, rateLimit: writeLimit }, preValidation: panel, schema: { params: ZParams, body: ZShippingRulesInput } },
    async (req) => setShipping(db, { ...requestContext(req), id: req.params.id, input: req.body }),
  );

  app.get('/api/live-sessions/:id/bill', { config: fields, preValidation: panel, schema: { params: ZParams } }, async (req) => {
    const actor = currentUser(req);
    const shipping = await readShipping(db, { actor, id: req.params.id });
    const sessionId = req.params.id.toLowerCase();
    const scope = paymentScope(actor);
    const groups = await unbilledGroups(db, { sessionId, scope });
    return { ...shipping, preview: previewOf(groups, shipping.rules), payments: await showPayments(db, { sessionId, scope }) } satisfies ShowBillOverview;
  });

  app.post('/api/live-sessions/:id/bill', { config: { ...fields, rateLimit: writeLimit }, preValidation: panel, schema: { params: ZParams } }, async (req) => {
    const { payments, created, events } = await billShow(db, { ...requestContext(req), id: req.params.id });
    await publisher.publish(events);
    return { payments, created } satisfies ShowBillAnswer;
  });

  app.post(
    '/api/live-sessions/:id/bill/links',
    { config: { ...fields, rateLimit: writeLimit }, preValidation: panel, schema: { params: ZParams } },
    async (req) =>
      (await makeLinks(db, {
        ...requestContext(req),
        id: req.params.id,
        provider,
        accounts,
        log: req.log,
        isCloudOn: ctx.whatsapp !== null,
        publish: (events) => publisher.publish(events),
      })) satisfies ShowLinksAnswer,
  );
}
