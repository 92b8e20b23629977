import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PUSH_FIELD_MESSAGES, ZPushSubscriptionInput, ZPushUnsubscribe } from '../../../domain/push.js';
import type { AppContext } from '../../context.js';
import { requireAuth } from '../../http/auth-hooks.js';
import { requestContext } from '../../http/request-context.js';
import { vapidKeysOf } from './keys.js';
import { subscribe, unsubscribe } from './service.js';

/** Subscribing is a tap on 'Avísame' or 'Seguir': a person's pace, and a runaway script stops here. */
const writeLimit = { max: 30, timeWindow: '1 minute', keyGenerator: (req: FastifyRequest) => req.user?.id ?? req.ip };
/** A PushSubscription's JSON is under 1 KB with a 1,000-character endpoint; anything much bigger is refused with 413. */
const BODY_LIMIT = 4096;

export async function pushRoutes(fastify: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, config } = ctx;
  // Loaded (or made, on the very first start) while the app starts, not on the first request.
  const { publicKey } = await vapidKeysOf(ctx);

  /** The key the browser's pushManager.subscribe() takes as applicationServerKey. Public. */
  app.get('/api/push/public-key', { schema: { response: { 200: z.object({ publicKey: z.string() }) } } }, async () => ({ publicKey }));

  app.post(
    '/api/push/subscriptions',
    {
      bodyLimit: BODY_LIMIT,
      config: { rateLimit: writeLimit, fieldMessages: PUSH_FIELD_MESSAGES },
      preValidation: requireAuth,
      schema: { body: ZPushSubscriptionInput },
    },
    async (req, reply) => {
      const userAgent = req.headers['user-agent']?.slice(0, 300) ?? null;
      const { id } = await subscribe(db, { ...requestContext(req), input: req.body, userAgent, allowedOrigins: config.push.allowedOrigins });
      return reply.code(201).send({ id });
    },
  );

  app.delete(
    '/api/push/subscriptions',
    {
      bodyLimit: BODY_LIMIT,
      config: { rateLimit: writeLimit, fieldMessages: PUSH_FIELD_MESSAGES },
      preValidation: requireAuth,
      schema: { body: ZPushUnsubscribe },
    },
    async (req, reply) => {
      await unsubscribe(db, { ...requestContext(req), endpoint: req.body.endpoint });
      return reply.code(204).send();
    },
  );
}
