import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZChatPin, ZChatSettingsInput, ZChatText, ZModeratorInput, ZMuteInput } from '../../../domain/chat-inputs.js';
import { isUuid } from '../../../domain/ids.js';
import type { AppContext } from '../../context.js';
import { currentUser, requireAuth } from '../../http/auth-hooks.js';
import { AppError } from '../../http/errors.js';
import { requestContext } from '../../http/request-context.js';
import { messages } from '../../messages.js';
import { postLine, reportLine } from './lines.js';
import { deleteLine, muteUser, pinLine, setSlowMode, unmuteUser } from './moderation.js';
import { readLineAuthor, readModerators, readMutes, readReports } from './moderation-lists.js';
import { appointModerator, removeModerator } from './moderators.js';
import { createAddressHasher } from './pace.js';
import { createChatPresenter } from './presenters.js';
import { readChatPage } from './queries.js';

const ZParams = z.object({ id: z.string().max(64) });
const ZLineParams = z.object({ id: z.string().max(64), messageId: z.string().max(64) });
const ZUserParams = z.object({ id: z.string().max(64), userId: z.string().max(64) });
const ZPageQuery = z.object({ before: z.string().max(64).refine(isUuid, { error: 'beforeInvalid' }).optional() });

const byUser = (req: FastifyRequest) => req.user?.id ?? req.ip;

/**
 * Lines per user: the pace rule lets one through every 2 seconds; a script sending more is turned
 * away here, before any query, in the same words.
 */
const lineLimit = {
  max: 10,
  timeWindow: '10 seconds',
  keyGenerator: byUser,
  errorResponseBuilder: (_req: FastifyRequest, context: { ttl: number }) => {
    const seconds = Math.max(1, Math.ceil(context.ttl / 1000));
    return new AppError('CHAT_RATE_LIMITED', messages.chat.flood.replace('{{seconds}}', String(seconds)), undefined, { retryAfterSeconds: seconds });
  },
};
/** Moderation and reports per user: a busy show clicks quickly, a runaway script is stopped. */
const actionLimit = {
  max: 60,
  timeWindow: '1 minute',
  keyGenerator: byUser,
  errorResponseBuilder: () => new AppError('RATE_LIMITED', messages.chat.rateLimited),
};

/** The chat's field codes (src/domain/chat.ts) have their own words, read before the shared ones. */
const chat = { fieldMessages: messages.chat.fields };
const write = { ...chat, rateLimit: actionLimit };

/**
 * A show's chat and its moderation. Reading the chat is public; writing needs a signed-in user;
 * moderating needs a moderator of that session (policies.ts); appointing moderators, its editors.
 * Each change's events are published after its commit.
 */
export async function chatRoutes(fastify: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, publisher } = ctx;
  const present = createChatPresenter(ctx.config.sessionSecret);
  const hashAddress = createAddressHasher(ctx.config.sessionSecret);

  app.get('/api/live-sessions/:id/chat', { config: chat, schema: { params: ZParams, querystring: ZPageQuery } }, async (req) =>
    readChatPage(db, present, { sessionId: req.params.id, viewer: req.user, before: req.query.before ?? null }),
  );

  app.post(
    '/api/live-sessions/:id/chat',
    { config: { ...chat, rateLimit: lineLimit }, preValidation: requireAuth, schema: { params: ZParams, body: ZChatText } },
    async (req, reply) => {
      const { text, announcement } = req.body;
      // req.ip is the client's address as the server is configured to read it (TRUST_PROXY).
      const address = { hash: hashAddress(req.ip), limit: ctx.config.chatLinesPerAddress };
      const posted = await postLine(db, { ...requestContext(req), present, sessionId: req.params.id, text, announcement: announcement === true, address });
      await publisher.publish(posted.events);
      return reply.code(201).send(posted.message);
    },
  );

  app.delete('/api/live-sessions/:id/chat/:messageId', { config: write, preValidation: requireAuth, schema: { params: ZLineParams } }, async (req, reply) => {
    const done = await deleteLine(db, { ...requestContext(req), present, sessionId: req.params.id, messageId: req.params.messageId });
    await publisher.publish(done.events);
    return reply.code(204).send();
  });

  app.post(
    '/api/live-sessions/:id/chat/:messageId/report',
    { config: write, preValidation: requireAuth, schema: { params: ZLineParams } },
    async (req, reply) => {
      const { created, report } = await reportLine(db, { actor: currentUser(req), sessionId: req.params.id, messageId: req.params.messageId });
      return reply.code(created ? 201 : 200).send(report);
    },
  );

  app.get('/api/live-sessions/:id/chat/reports', { config: chat, preValidation: requireAuth, schema: { params: ZParams } }, async (req) =>
    readReports(db, { actor: currentUser(req), sessionId: req.params.id, present }),
  );

  /** The author of a line, for a moderator's menu (public lines carry no user id). */
  app.get('/api/live-sessions/:id/chat/:messageId/author', { config: chat, preValidation: requireAuth, schema: { params: ZLineParams } }, async (req) =>
    readLineAuthor(db, { actor: currentUser(req), sessionId: req.params.id, messageId: req.params.messageId }),
  );

  app.post('/api/live-sessions/:id/chat/pin', { config: write, preValidation: requireAuth, schema: { params: ZParams, body: ZChatPin } }, async (req) => {
    const done = await pinLine(db, { ...requestContext(req), present, sessionId: req.params.id, messageId: req.body.messageId });
    await publisher.publish(done.events);
    return done.settings;
  });

  app.put(
    '/api/live-sessions/:id/chat-settings',
    { config: write, preValidation: requireAuth, schema: { params: ZParams, body: ZChatSettingsInput } },
    async (req) => {
      const done = await setSlowMode(db, { ...requestContext(req), present, sessionId: req.params.id, slowModeSeconds: req.body.slowModeSeconds });
      await publisher.publish(done.events);
      return done.settings;
    },
  );

  app.get('/api/live-sessions/:id/moderators', { config: chat, preValidation: requireAuth, schema: { params: ZParams } }, async (req) =>
    readModerators(db, { actor: currentUser(req), sessionId: req.params.id }),
  );

  app.post(
    '/api/live-sessions/:id/moderators',
    { config: write, preValidation: requireAuth, schema: { params: ZParams, body: ZModeratorInput } },
    async (req, reply) => {
      const { created, items } = await appointModerator(db, { ...requestContext(req), sessionId: req.params.id, email: req.body.email });
      return reply.code(created ? 201 : 200).send({ items });
    },
  );

  app.delete('/api/live-sessions/:id/moderators/:userId', { config: write, preValidation: requireAuth, schema: { params: ZUserParams } }, async (req) =>
    removeModerator(db, { ...requestContext(req), sessionId: req.params.id, userId: req.params.userId }),
  );

  app.get('/api/live-sessions/:id/mutes', { config: chat, preValidation: requireAuth, schema: { params: ZParams } }, async (req) =>
    readMutes(db, { actor: currentUser(req), sessionId: req.params.id }),
  );

  app.post('/api/live-sessions/:id/mutes', { config: write, preValidation: requireAuth, schema: { params: ZParams, body: ZMuteInput } }, async (req, reply) => {
    const done = await muteUser(db, { ...requestContext(req), sessionId: req.params.id, userId: req.body.userId, minutes: req.body.minutes });
    await publisher.publish(done.events);
    return reply.code(201).send(done.mute);
  });

  app.delete('/api/live-sessions/:id/mutes/:userId', { config: write, preValidation: requireAuth, schema: { params: ZUserParams } }, async (req, reply) => {
    const done = await unmuteUser(db, { ...requestContext(req), sessionId: req.params.id, userId: req.params.userId });
    await publisher.publish(done.events);
    return reply.code(204).send();
  });
}
