import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MUTED_WORDS_MAX } from '../../../domain/chat.js';
import { ZBlockInput } from '../../../domain/chat-inputs.js';
import { zText } from '../../../domain/text.js';
import type { AppContext } from '../../context.js';
import { currentUser, requireAuth, requireRole } from '../../http/auth-hooks.js';
import { requestContext } from '../../http/request-context.js';
import { messages } from '../../messages.js';
import { blockUser, listBlocks, unblockUser } from './blocks.js';
import { getMutedWords, saveMutedWords } from './muted-words.js';

/** Any string: an id out of scope or unknown is simply not found (404), not a bad request. */
const ZCompanyParams = z.object({ id: zText().max(200) });
const ZBlockParams = z.object({ id: zText().max(200), userId: zText().max(64) });
/** The count here; each word's own rules are the service's, so its refusal can name the word. */
const ZMutedWordsBody = z.object({ words: z.array(z.string()).max(MUTED_WORDS_MAX, { error: 'mutedWordsTooMany' }) });
const mutedWordsFields = { mutedWordsTooMany: messages.moderation.mutedWords.tooMany };
/** Moderation writes per user: a moderator blocking through a rough show, not a script. */
const writeLimit = { max: 60, timeWindow: '1 minute', keyGenerator: (req: FastifyRequest) => req.user?.id ?? req.ip };

/**
 * A company's blocked users and muted words (registered by the companies routes). Reading, unblocking
 * and the muted words are for the company's panel users and platform admins; blocking also for a
 * moderator appointed to one of its shows not yet ended, who may be a buyer: that route asks for a
 * signed-in user only and the service decides.
 */
export async function companyModerationRoutes(fastify: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, publisher } = ctx;
  const panel = requireRole('admin', 'seller');

  app.get('/api/companies/:id/blocks', { preValidation: panel, schema: { params: ZCompanyParams } }, async (req) =>
    listBlocks(db, { actor: currentUser(req), companyId: req.params.id }),
  );

  app.post(
    '/api/companies/:id/blocks',
    { config: { rateLimit: writeLimit }, preValidation: requireAuth, schema: { params: ZCompanyParams, body: ZBlockInput } },
    async (req, reply) => {
      const { block, events } = await blockUser(db, { ...requestContext(req), companyId: req.params.id, userId: req.body.userId });
      await publisher.publish(events);
      // A repeat answers as the first did: whether someone was already blocked is not for a show's moderator to learn.
      return reply.code(201).send(block);
    },
  );

  app.delete(
    '/api/companies/:id/blocks/:userId',
    { config: { rateLimit: writeLimit }, preValidation: panel, schema: { params: ZBlockParams } },
    async (req, reply) => {
      const { events } = await unblockUser(db, { ...requestContext(req), companyId: req.params.id, userId: req.params.userId });
      await publisher.publish(events);
      return reply.code(204).send();
    },
  );

  app.get('/api/companies/:id/muted-words', { preValidation: panel, schema: { params: ZCompanyParams } }, async (req) =>
    getMutedWords(db, { actor: currentUser(req), companyId: req.params.id }),
  );

  app.put(
    '/api/companies/:id/muted-words',
    { config: { rateLimit: writeLimit, fieldMessages: mutedWordsFields }, preValidation: panel, schema: { params: ZCompanyParams, body: ZMutedWordsBody } },
    async (req) => saveMutedWords(db, { ...requestContext(req), companyId: req.params.id, words: req.body.words }),
  );
}
