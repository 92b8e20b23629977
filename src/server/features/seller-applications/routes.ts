import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZApplicationListQuery, ZDeclineInput, ZSellerApplicationInput } from '../../../domain/seller-applications.js';
import type { AppContext } from '../../context.js';
import { currentUser, requireAuth, requireRole } from '../../http/auth-hooks.js';
import { requestContext } from '../../http/request-context.js';
import { messages } from '../../messages.js';
import { listApplications } from './queries.js';
import { applyToSell, approveApplication, declineApplication } from './service.js';

/** The id is checked by the service: a malformed one is simply not found (404). */
const ZParams = z.object({ id: z.string().max(64) });
const byUser = (req: FastifyRequest) => req.user?.id ?? req.ip;
/** A person applies once; a few tries cover fixing a field. Tight enough that a script cannot fill the admins' queue. */
const applyLimit = { max: 10, timeWindow: '10 minutes', keyGenerator: byUser };
const decideLimit = { max: 120, timeWindow: '1 minute', keyGenerator: byUser };
/** A request is a few short fields: anything larger is refused before it is parsed. */
const BODY_LIMIT = 16 * 1024;
const fieldMessages = messages.sellerApplications.fields;

export async function sellerApplicationsRoutes(fastify: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, publisher } = ctx;
  const adminOnly = requireRole('admin');

  // Any signed-in account (a complete profile is not needed to ask).
  app.post(
    '/api/seller-applications',
    { bodyLimit: BODY_LIMIT, config: { rateLimit: applyLimit, fieldMessages }, preValidation: requireAuth, schema: { body: ZSellerApplicationInput } },
    async (req, reply) => reply.code(201).send(await applyToSell(db, { ...requestContext(req), input: req.body })),
  );

  // Platform admins: everyone's; anyone else: their own, so the applicant's page shows its state.
  app.get('/api/seller-applications', { preValidation: requireAuth, schema: { querystring: ZApplicationListQuery } }, async (req) =>
    listApplications(db, { actor: currentUser(req), status: req.query.status }),
  );

  app.post(
    '/api/seller-applications/:id/approve',
    { bodyLimit: BODY_LIMIT, config: { rateLimit: decideLimit }, preValidation: adminOnly, schema: { params: ZParams } },
    async (req) => {
      const { application, events } = await approveApplication(db, { ...requestContext(req), id: req.params.id });
      await publisher.publish(events);
      return application;
    },
  );

  app.post(
    '/api/seller-applications/:id/decline',
    { bodyLimit: BODY_LIMIT, config: { rateLimit: decideLimit, fieldMessages }, preValidation: adminOnly, schema: { params: ZParams, body: ZDeclineInput } },
    async (req) => {
      const { application, events } = await declineApplication(db, { ...requestContext(req), id: req.params.id, reason: req.body.reason });
      await publisher.publish(events);
      return application;
    },
  );
}
