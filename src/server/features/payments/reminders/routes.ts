import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../../context.js';
import { currentUser, requireRole } from '../../../http/auth-hooks.js';
import { requestContext } from '../../../http/request-context.js';
import { paymentScope } from '../bills/policies.js';
import { listDueReminders } from './queries.js';
import { markReminderSent } from './service.js';

const ZParams = z.object({ id: z.uuid({ error: 'invalid' }) });
const ZListQuery = z.object({ status: z.enum(['due'], { error: 'invalid' }).default('due') });
const panel = requireRole('admin', 'seller');
const writeLimit = { max: 120, timeWindow: '1 minute', keyGenerator: (req: FastifyRequest) => req.user?.id ?? req.ip };

/** "Recordatorios pendientes": the due wa.me reminders in scope, and marking one sent by hand. */
export async function remindersRoutes(fastify: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const origin = ctx.config.publicUrl.origin;

  // Only reads: a link makes its bill's reminders as it is made (payments/reminder-ladder.ts).
  app.get('/api/reminders', { preValidation: panel, schema: { querystring: ZListQuery } }, async (req) =>
    listDueReminders(ctx.db, { scope: paymentScope(currentUser(req)), origin }),
  );

  app.post('/api/reminders/:id/sent', { config: { rateLimit: writeLimit }, preValidation: panel, schema: { params: ZParams } }, async (req) => ({
    reminder: await markReminderSent(ctx.db, { ...requestContext(req), id: req.params.id, origin }),
  }));
}
