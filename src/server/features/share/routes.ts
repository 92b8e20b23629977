import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { SHARE_CARD_FILE, ZShareCardParams, ZSiteCardParams } from '../../../domain/share.js';
import { AppError } from '../../http/errors.js';
import { messages } from '../../messages.js';
import type { PictureAnswer, Share } from './service.js';

/** Per address: a crawler storm after a post in a big group is mostly served from memory; a script walking ids is not. */
const pictureLimit = { max: 240, timeWindow: '1 minute', keyGenerator: (req: FastifyRequest) => req.ip };

function send(reply: FastifyReply, answer: PictureAnswer): FastifyReply {
  if (answer.kind === 'none') throw new AppError('NOT_FOUND', messages.errors.notFound);
  // An older picture's address (WhatsApp keeps what it saw): the current one, asked again each time.
  if (answer.kind === 'moved') return reply.header('Cache-Control', 'no-cache').redirect(answer.path, 302);
  // The address names exactly this picture: kept for good by browsers, crawlers and CDNs.
  return reply.header('Cache-Control', 'public, max-age=31536000, immutable').type('image/jpeg').send(answer.body);
}

/** The share cards' pictures (`/og/…`), which the pages' og:image tags point to. */
export async function shareRoutes(fastify: FastifyInstance, opts: { share: Share }): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { share } = opts;

  app.get('/og/:kind/:file', { config: { rateLimit: pictureLimit }, schema: { params: ZShareCardParams, hide: true } }, async (req, reply) => {
    const [, key = '', hash = ''] = SHARE_CARD_FILE.exec(req.params.file) ?? [];
    return send(reply, await share.picture(req.params.kind, key, hash));
  });

  app.get('/og/:file', { config: { rateLimit: pictureLimit }, schema: { params: ZSiteCardParams, hide: true } }, async (req, reply) => {
    const hash = req.params.file.slice('martillo-'.length, -'.jpg'.length);
    return send(reply, await share.picture('site', '', hash));
  });
}
