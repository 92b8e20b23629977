import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AuctionDetail } from '../../../domain/auctions.js';
import {
  ZAddLot,
  ZLotUpdate,
  ZNextLot,
  ZPickerQuery,
  ZQuickAuction,
  ZReorderLots,
  ZSessionCreate,
  ZSessionUpdate,
  ZSetCurrentLot,
  ZStreamStart,
  ZStreamStop,
  ZTimerInput,
} from '../../../domain/live.js';
import type { AppContext } from '../../context.js';
import { currentUser, requireRole } from '../../http/auth-hooks.js';
import { AppError } from '../../http/errors.js';
import { requestContext } from '../../http/request-context.js';
import { messages } from '../../messages.js';
import { canEditSession } from '../../policies/live-sessions.js';
import { VideoUnavailableError } from '../../providers/video/types.js';
import { sessionNotFound } from '../../reads/sessions.js';
import type { DomainEvent } from '../../realtime/publisher.js';
import type { CurrentUser } from '../../sessions/store.js';
import { describeAuction } from '../auctions/index.js';
import { setLotFormat } from './lots/lot-format.js';
import { addLot, removeLot, reorderLots, setCurrentLot } from './lots/lots.js';
import { openNextLot } from './lots/next-lot.js';
import { createQuickAuction } from './lots/quick-auction.js';
import { requeueLot } from './lots/requeue.js';
import { presentDetail, type SessionView } from './presenters.js';
import { idempotencyKeyOf, keyClaim } from './sessions/idempotency.js';
import { listSessions, liveDirectory, pickAuctions, readSessionView } from './sessions/queries.js';
import { createSession, deleteSession, readEditable, readSession, updateSession } from './sessions/sessions.js';
import { startStream, stopStream } from './show/stream.js';
import { setLotTimer } from './show/timer.js';

const ZParams = z.object({ id: z.string().max(64) });
const ZVideoQuery = z.object({
  role: z.enum(['publisher', 'subscriber'], { error: 'videoRoleInvalid' }),
  /** The page's own id for its viewer, kept across its reloads (src/web/video/grant.ts): she counts once on her edge. */
  viewer: z.uuid({ error: 'videoViewerInvalid' }).optional(),
});
/** A page asks for a grant when it opens or reconnects: a few a minute; more is a script. */
const grantLimit = { max: 30, timeWindow: '1 minute', keyGenerator: (req: FastifyRequest) => req.user?.id ?? req.ip };
const ZLotParams = z.object({ id: z.string().max(64), lotId: z.string().max(64) });
const panel = requireRole('admin', 'seller');
/** Changes per user: a show clicks timers and lots quickly, a runaway script is stopped. */
const writeLimit = {
  max: 120,
  timeWindow: '1 minute',
  keyGenerator: (req: FastifyRequest) => req.user?.id ?? req.ip,
  errorResponseBuilder: () => new AppError('RATE_LIMITED', messages.live.rateLimited),
};
/** The picker searches as the seller types (debounced 300 ms). */
const pickerLimit = { max: 60, timeWindow: '10 seconds', keyGenerator: (req: FastifyRequest) => req.user?.id ?? req.ip };

/**
 * Every live route: the Live Hub's field codes (src/domain/live.ts) have their own words, read by the
 * shared error handler before the common ones ('whatsappInvalid' is a group link here).
 */
const live = { fieldMessages: { ...messages.live.fields, ...messages.showBilling.fields } };
/** A change: the Live Hub's words and the writes' limit. */
const write = { ...live, rateLimit: writeLimit };

/**
 * The Live Hub's API (its paths are the ones the Live Hub was built against). GET of one session
 * and the directory are public; everything else is the panel's, and a session the user may not
 * change answers 'Sesión no encontrada' (404) like one that does not exist. Each change answers the
 * session as its editor reads it; the events its service returns are published after the commit.
 */
export async function liveRoutes(fastify: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, publisher, realtime } = ctx;
  const { present } = ctx.bidding;

  /** The session as `viewer` reads it, for an answer. */
  const detailOf = (view: SessionView, viewer: CurrentUser | null) =>
    presentDetail(view, { present, canEdit: canEditSession(viewer, view.row), viewerCount: realtime.viewerCount(view.row.id) });

  /** After a committed change: publish the events its service returned, and answer the editor's view. */
  async function answer(change: { view: SessionView; events: DomainEvent[] }, actor: CurrentUser) {
    await publisher.publish(change.events);
    return detailOf(change.view, actor);
  }

  app.get('/api/live-sessions', { config: live, preValidation: panel }, async (req) => listSessions(db, currentUser(req)));

  app.get('/api/live-sessions/public', { config: live }, async () => liveDirectory(db));

  /** A repeat of an Idempotency-Key answers as the first did (201, the record as it is now), and says so in a header. */
  const replayed = (reply: FastifyReply) => reply.header('Idempotent-Replayed', 'true');

  app.post('/api/live-sessions', { config: write, preValidation: panel, schema: { body: ZSessionCreate } }, async (req, reply) => {
    const context = requestContext(req);
    const key = keyClaim({ userId: context.actor.id, key: idempotencyKeyOf(req), action: 'live_session.create', sessionId: null, body: req.body });
    const made = await createSession(db, { ...context, present, input: req.body, key });
    if (made.replayed) return replayed(reply).code(201).send(detailOf(made.view, context.actor));
    return reply.code(201).send(await answer(made, context.actor));
  });

  app.get('/api/live-sessions/:id', { config: live, schema: { params: ZParams } }, async (req) => {
    const view = await readSessionView(db, req.params.id);
    if (!view) throw sessionNotFound();
    return detailOf(view, req.user);
  });

  app.put('/api/live-sessions/:id', { config: write, preValidation: panel, schema: { params: ZParams, body: ZSessionUpdate } }, async (req) => {
    const context = requestContext(req);
    const change = await updateSession(db, { ...context, present, id: req.params.id, input: req.body });
    const detail = await answer(change, context.actor);
    // 'Finalizada' drops the video as 'Detener' does: nobody keeps watching an ended show.
    if (change.ended) await endVideo(change.sessionId);
    return detail;
  });

  app.delete('/api/live-sessions/:id', { config: write, preValidation: panel, schema: { params: ZParams } }, async (req) => {
    const { row, events } = await deleteSession(db, { ...requestContext(req), id: req.params.id });
    await publisher.publish(events);
    await endVideo(row.id);
    return { id: row.id };
  });

  /** After a stop or a delete: the provider drops the session's room; a failure there is logged, the change stands. */
  async function endVideo(sessionId: string) {
    await ctx.video.endSession(sessionId).catch((err: unknown) => fastify.log.warn({ err, sessionId }, 'video: could not end the session'));
  }

  /**
   * What the browser needs to publish (the session's editors only: anyone else gets 'Sesión no
   * encontrada', SPEC's 'token' failure) or to watch (anyone) the session's video.
   */
  app.get(
    '/api/live-sessions/:id/video',
    { config: { ...live, rateLimit: grantLimit }, schema: { params: ZParams, querystring: ZVideoQuery } },
    async (req, reply) => {
      const { role, viewer } = req.query;
      let session: Awaited<ReturnType<typeof readSession>>;
      if (role === 'publisher') {
        await panel(req, reply);
        session = await readEditable(db, req.params.id, currentUser(req));
      } else {
        session = await readSession(db, req.params.id);
      }
      if (!session) throw sessionNotFound();
      try {
        return await ctx.video.grant(session.id, role, viewer ? { viewer } : {});
      } catch (err) {
        if (err instanceof VideoUnavailableError) throw new AppError('VIDEO_UNAVAILABLE', messages.live.videoUnavailable);
        throw err;
      }
    },
  );

  /** 'Iniciar' once the provider accepted the seller's media: live, streamType, lastStreamStart (SPEC §4). */
  app.post('/api/live-sessions/:id/stream/start', { config: write, preValidation: panel, schema: { params: ZParams, body: ZStreamStart } }, async (req) => {
    const context = requestContext(req);
    const reopen = req.body?.reopen === true;
    return answer(await startStream(db, { ...context, present, sessionId: req.params.id, provider: ctx.video.name, reopen }), context.actor);
  });

  /**
   * 'Detener': scheduled, lastStreamStop, and the provider drops the session's video. With
   * `startedAt` (a page going) only if that is still the broadcast on.
   */
  app.post('/api/live-sessions/:id/stream/stop', { config: write, preValidation: panel, schema: { params: ZParams, body: ZStreamStop } }, async (req) => {
    const context = requestContext(req);
    const startedAt = req.body?.startedAt;
    const done = await stopStream(db, { ...context, present, sessionId: req.params.id, ...(startedAt !== undefined ? { startedAt } : {}) });
    const detail = await answer(done, context.actor);
    if (done.stopped) await endVideo(detail.session.id);
    return detail;
  });

  app.post('/api/live-sessions/:id/lots', { config: write, preValidation: panel, schema: { params: ZParams, body: ZAddLot } }, async (req, reply) => {
    const context = requestContext(req);
    const change = await addLot(db, { ...context, present, sessionId: req.params.id, auctionId: req.body.auctionId });
    return reply.code(201).send(await answer(change, context.actor));
  });

  app.delete('/api/live-sessions/:id/lots/:lotId', { config: write, preValidation: panel, schema: { params: ZLotParams } }, async (req) => {
    const context = requestContext(req);
    return answer(await removeLot(db, { ...context, present, sessionId: req.params.id, lotId: req.params.lotId }), context.actor);
  });

  app.put('/api/live-sessions/:id/lots/order', { config: write, preValidation: panel, schema: { params: ZParams, body: ZReorderLots } }, async (req) => {
    const context = requestContext(req);
    return answer(await reorderLots(db, { ...context, present, sessionId: req.params.id, lotIds: req.body.lotIds }), context.actor);
  });

  /** A lot's own timer format; null fields follow the session's (lot-format.ts). */
  app.put('/api/live-sessions/:id/lots/:lotId', { config: write, preValidation: panel, schema: { params: ZLotParams, body: ZLotUpdate } }, async (req) => {
    const context = requestContext(req);
    return answer(await setLotFormat(db, { ...context, present, sessionId: req.params.id, lotId: req.params.lotId, input: req.body }), context.actor);
  });

  app.post('/api/live-sessions/:id/current', { config: write, preValidation: panel, schema: { params: ZParams, body: ZSetCurrentLot } }, async (req) => {
    const context = requestContext(req);
    const { lotId, reopen } = req.body;
    return answer(await setCurrentLot(db, { ...context, present, sessionId: req.params.id, lotId, reopen: reopen === true }), context.actor);
  });

  app.post('/api/live-sessions/:id/timer', { config: write, preValidation: panel, schema: { params: ZParams, body: ZTimerInput } }, async (req) => {
    const context = requestContext(req);
    return answer(await setLotTimer(db, { ...context, present, sessionId: req.params.id, seconds: req.body.seconds }), context.actor);
  });

  /** 'Siguiente lote': the next queued lot becomes current and its timer starts, in one transaction (next-lot.ts). */
  app.post('/api/live-sessions/:id/next', { config: write, preValidation: panel, schema: { params: ZParams, body: ZNextLot } }, async (req) => {
    const context = requestContext(req);
    const by = { kind: 'seller', acting: context, reopen: req.body?.reopen === true } as const;
    const done = await openNextLot(db, { by, present, sessionId: req.params.id });
    if (!done) throw sessionNotFound();
    return answer(done, context.actor);
  });

  /** 'Volver a subastar': an unsold lot goes back to the end of the queue (requeue.ts). */
  app.post('/api/live-sessions/:id/lots/:lotId/requeue', { config: write, preValidation: panel, schema: { params: ZLotParams } }, async (req) => {
    const context = requestContext(req);
    return answer(await requeueLot(db, { ...context, present, sessionId: req.params.id, lotId: req.params.lotId }), context.actor);
  });

  app.post(
    '/api/live-sessions/:id/quick-auction',
    { config: write, preValidation: panel, schema: { params: ZParams, body: ZQuickAuction } },
    async (req, reply) => {
      const context = requestContext(req);
      const { actor } = context;
      const key = keyClaim({ userId: actor.id, key: idempotencyKeyOf(req), action: 'live_session.quick_auction', sessionId: req.params.id, body: req.body });
      const done = await createQuickAuction(db, { ...context, present, sessionId: req.params.id, input: req.body, key });
      const auction = (await describeAuction(db, { row: done.row, viewer: actor })) as AuctionDetail;
      if (done.replayed)
        return replayed(reply)
          .code(201)
          .send({ auction, detail: done.view ? detailOf(done.view, actor) : null });
      await publisher.publish(done.events);
      return reply.code(201).send({ auction, detail: done.view ? detailOf(done.view, actor) : null });
    },
  );

  app.get(
    '/api/live-sessions/:id/picker',
    { config: { ...live, rateLimit: pickerLimit }, preValidation: panel, schema: { params: ZParams, querystring: ZPickerQuery } },
    async (req) => {
      const actor = currentUser(req);
      const session = await readEditable(db, req.params.id, actor);
      return pickAuctions(db, { actor, sessionId: session.id, q: req.query.q });
    },
  );
}
