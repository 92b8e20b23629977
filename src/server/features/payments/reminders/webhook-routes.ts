import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../../context.js';
import { AppError } from '../../../http/errors.js';
import { messages } from '../../../messages.js';
import { applyDeliveryStatuses, deliveryStatuses } from './webhook.js';

const webhookLimit = { max: 600, timeWindow: '1 minute' };

const ZVerifyQuery = z.object({
  'hub.mode': z.string().max(40).optional(),
  'hub.verify_token': z.string().max(500).optional(),
  'hub.challenge': z.string().max(500).optional(),
});

/**
 * The WhatsApp Cloud API's webhook, in its own encapsulated plugin: its body parser keeps the raw
 * bytes, as X-Hub-Signature-256 signs them exactly (a re-serialised JSON would not match). Its
 * static path wins over payments' `/api/webhooks/:provider`.
 */
export async function whatsappWebhookPlugin(fastify: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));

  // Meta's subscription check: echo the challenge when the verify token matches.
  app.get('/api/webhooks/whatsapp', { config: { rateLimit: webhookLimit }, schema: { querystring: ZVerifyQuery } }, async (req, reply) => {
    const whatsapp = ctx.whatsapp;
    if (!whatsapp) throw new AppError('NOT_FOUND', messages.reminders.webhookNotConfigured);
    const q = req.query;
    if (q['hub.mode'] !== 'subscribe' || q['hub.verify_token'] !== whatsapp.config.verifyToken)
      throw new AppError('FORBIDDEN', messages.reminders.webhookVerify);
    return reply.type('text/plain; charset=utf-8').send(q['hub.challenge'] ?? '');
  });

  app.post('/api/webhooks/whatsapp', { config: { rateLimit: webhookLimit } }, async (req, reply) => {
    const whatsapp = ctx.whatsapp;
    if (!whatsapp) throw new AppError('NOT_FOUND', messages.reminders.webhookNotConfigured);
    const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const signature = req.headers['x-hub-signature-256'];
    if (!whatsapp.isSignatureValid(raw, typeof signature === 'string' ? signature : undefined))
      throw new AppError('UNAUTHENTICATED', messages.reminders.webhookSignature);
    let body: unknown;
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      // Signed but not JSON: nothing to apply; a 200 stops Meta from retrying it forever.
      return reply.code(200).send({ ok: true });
    }
    const changed = await applyDeliveryStatuses(ctx.db, deliveryStatuses(body));
    return reply.code(200).send({ ok: true, changed });
  });
}
