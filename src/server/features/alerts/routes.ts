import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZReadNotifications } from '../../../domain/alerts.js';
import type { AppContext } from '../../context.js';
import { currentUser, requireAuth } from '../../http/auth-hooks.js';
import { AppError } from '../../http/errors.js';
import { requestContext } from '../../http/request-context.js';
import { messages } from '../../messages.js';
import { listNotifications, readNotifications } from './bell.js';
import { myFollowing } from './following.js';
import { followSeller, remindShow, unfollowSeller, unremindShow } from './follows.js';

const ZParams = z.object({ id: z.string().max(64) });
const perUser = (req: FastifyRequest) => req.user?.id ?? req.ip;
/** Per buyer: far more than a person tapping Seguir and Avísame, few enough to stop a script. */
const writeLimit = {
  max: 60,
  timeWindow: '1 minute',
  keyGenerator: perUser,
  errorResponseBuilder: () => new AppError('RATE_LIMITED', messages.alerts.rateLimited),
};
/** The bell and 'Mis alertas' are read on every page a signed-in buyer opens, and again on each realtime nudge. */
const readLimit = { max: 240, timeWindow: '1 minute', keyGenerator: perUser };
const bellFields = { fieldMessages: messages.alerts.fields };

/** Follow, 'Avísame', 'Mis alertas' and the bell. The go-live fan-out is the `show-alerts` job (fan-out.ts). */
export async function alertsRoutes(fastify: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, publisher, realtime } = ctx;

  app.post('/api/sellers/:id/follow', { config: { rateLimit: writeLimit }, preValidation: requireAuth, schema: { params: ZParams } }, async (req) =>
    followSeller(db, { ...requestContext(req), sellerId: req.params.id }),
  );

  app.delete('/api/sellers/:id/follow', { config: { rateLimit: writeLimit }, preValidation: requireAuth, schema: { params: ZParams } }, async (req) =>
    unfollowSeller(db, { ...requestContext(req), sellerId: req.params.id }),
  );

  app.get('/api/me/following', { config: { rateLimit: readLimit }, preValidation: requireAuth }, async (req) =>
    myFollowing(db, { userId: currentUser(req).id, viewerCount: (id) => realtime.viewerCount(id) }),
  );

  app.post('/api/live-sessions/:id/reminder', { config: { rateLimit: writeLimit }, preValidation: requireAuth, schema: { params: ZParams } }, async (req) =>
    remindShow(db, { ...requestContext(req), sessionId: req.params.id }),
  );

  app.delete('/api/live-sessions/:id/reminder', { config: { rateLimit: writeLimit }, preValidation: requireAuth, schema: { params: ZParams } }, async (req) =>
    unremindShow(db, { ...requestContext(req), sessionId: req.params.id }),
  );

  app.get('/api/notifications', { config: { rateLimit: readLimit }, preValidation: requireAuth }, async (req) =>
    listNotifications(db, { userId: currentUser(req).id }),
  );

  app.post(
    '/api/notifications/read',
    { config: { rateLimit: writeLimit, ...bellFields }, bodyLimit: 16_384, preValidation: requireAuth, schema: { body: ZReadNotifications } },
    async (req) => {
      const { answer, events } = await readNotifications(db, { ...requestContext(req), input: req.body });
      await publisher.publish(events);
      return answer;
    },
  );
}
