import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { REPLAY_VISIBILITIES } from '../../../domain/replays.js';
import type { AppContext } from '../../context.js';
import { requireAuth } from '../../http/auth-hooks.js';
import { AppError } from '../../http/errors.js';
import { rangeOf } from '../../http/range.js';
import { requestContext } from '../../http/request-context.js';
import { messages } from '../../messages.js';
import type { Storage } from '../../providers/storage/types.js';
import { clipFile, deleteReplay, readClip, readReplay, readReplayChat, replayFile, retryReplay, setReplayVisibility } from './service.js';
import { createClipSigner } from './signed-urls.js';

const ZParams = z.object({ id: z.string().max(64) });
const ZVisibility = z.object({ visibility: z.enum(REPLAY_VISIBILITIES, { error: 'visibilityInvalid' }) }).strict();
const ZSigned = z.object({ expires: z.string().max(20).optional(), signature: z.string().max(100).optional() });
/** The replay's chat is read a page at a time, after the line numbered `after` (a page's `next`). */
const ZChatPage = z.object({
  after: z
    .string()
    .regex(/^\d{1,15}$/, { error: 'afterInvalid' })
    .optional(),
});
const replayFields = { fieldMessages: messages.replays.fields };
/** The seller's changes: a handful a minute at most. */
const writeLimit = { max: 30, timeWindow: '1 minute' };

/**
 * Answers a stored video (or its poster) with HTTP Range: 206 with the asked bytes, 200 with the
 * whole, 416 for a range past the end or not a byte range. Public files may be cached by the browser
 * and any CDN in front; private ones (a hidden replay an editor watches, a buyer's clip) never.
 */
async function sendStored(
  req: FastifyRequest,
  reply: FastifyReply,
  storage: Storage,
  opts: { key: string; contentType: string; isPublic: boolean },
): Promise<FastifyReply> {
  const stat = await storage.stat(opts.key);
  if (!stat) throw new AppError('NOT_FOUND', messages.replays.notFound);
  const asked = rangeOf(req.headers.range, stat.size);
  reply.header('Accept-Ranges', 'bytes');
  reply.header('Cache-Control', opts.isPublic ? 'public, max-age=3600' : 'private, no-store');
  if (asked.kind === 'unsatisfiable') {
    reply.header('Content-Range', `bytes */${stat.size}`);
    throw new AppError('RANGE_NOT_SATISFIABLE', messages.replays.rangeInvalid);
  }
  const range = asked.kind === 'part' ? { start: asked.start, end: asked.end } : null;
  const read = await storage.readRange(opts.key, range);
  if (!read) throw new AppError('NOT_FOUND', messages.replays.notFound);
  reply.type(opts.contentType);
  reply.header('Content-Length', String(read.end - read.start + 1));
  if (range) {
    reply.code(206);
    reply.header('Content-Range', `bytes ${read.start}-${read.end}/${read.size}`);
  }
  return reply.send(read.body);
}

/**
 * A show's replay (its state, video, poster and chat at its moments; hide, delete, retry) and a
 * sold lot's clip (a signed address for its winner, seller and company admins, and the video behind
 * it).
 */
export async function replaysRoutes(fastify: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, storage } = ctx;
  const signer = createClipSigner(ctx.config.sessionSecret);

  app.get('/api/live-sessions/:id/replay', { schema: { params: ZParams } }, async (req) =>
    readReplay(db, { sessionId: req.params.id, viewer: req.user ?? null }),
  );

  app.get('/api/live-sessions/:id/replay/chat', { schema: { params: ZParams, querystring: ZChatPage } }, async (req) =>
    readReplayChat(db, { sessionId: req.params.id, viewer: req.user ?? null, after: req.query.after === undefined ? null : Number(req.query.after) }),
  );

  app.get('/api/live-sessions/:id/replay/video', { schema: { params: ZParams } }, async (req, reply) => {
    const file = await replayFile(db, { sessionId: req.params.id, viewer: req.user ?? null, file: 'video' });
    return sendStored(req, reply, storage, { key: file.key, contentType: 'video/mp4', isPublic: file.isPublic });
  });

  app.get('/api/live-sessions/:id/replay/poster', { schema: { params: ZParams } }, async (req, reply) => {
    const file = await replayFile(db, { sessionId: req.params.id, viewer: req.user ?? null, file: 'poster' });
    return sendStored(req, reply, storage, { key: file.key, contentType: 'image/jpeg', isPublic: file.isPublic });
  });

  app.put(
    '/api/live-sessions/:id/replay',
    { preValidation: requireAuth, bodyLimit: 1024, config: { ...replayFields, rateLimit: writeLimit }, schema: { params: ZParams, body: ZVisibility } },
    async (req) => setReplayVisibility(db, { ...requestContext(req), sessionId: req.params.id, visibility: req.body.visibility }),
  );

  app.delete(
    '/api/live-sessions/:id/replay',
    { preValidation: requireAuth, config: { rateLimit: writeLimit }, schema: { params: ZParams } },
    async (req, reply) => {
      await deleteReplay(db, storage, { ...requestContext(req), sessionId: req.params.id });
      return reply.code(204).send();
    },
  );

  app.post(
    '/api/live-sessions/:id/replay/retry',
    { preValidation: requireAuth, config: { rateLimit: writeLimit }, schema: { params: ZParams } },
    async (req, reply) => reply.code(202).send(await retryReplay(db, { ...requestContext(req), sessionId: req.params.id })),
  );

  app.get('/api/auctions/:id/clip', { schema: { params: ZParams } }, async (req) =>
    readClip(db, signer, { auctionId: req.params.id, viewer: req.user ?? null }),
  );

  app.get('/api/auctions/:id/clip/video', { schema: { params: ZParams, querystring: ZSigned } }, async (req, reply) => {
    const checked = signer.verify(req.params.id, req.query.expires, req.query.signature);
    if (checked === 'forged') throw new AppError('FORBIDDEN', messages.replays.linkForged);
    if (checked === 'expired') throw new AppError('LINK_EXPIRED', messages.replays.linkExpired);
    const key = await clipFile(db, req.params.id);
    return sendStored(req, reply, storage, { key, contentType: 'video/mp4', isPublic: false });
  });
}
