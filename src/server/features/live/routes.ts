import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AuctionDetail } from '../../../domain/auctions.js';
import {
  ZAddLot,
  ZPickerQuery,
  ZQuickAuction,
  ZReorderLots,
  ZSessionCreate,
  ZSessionUpdate,
  ZSetCurrentLot,
  ZStreamStart,
  ZTimerInput,
} from '../../../domain/live.js';
import type { AppContext } from '../../context.js';
import { currentUser, requireRole } from '../../http/auth-hooks.js';
import { AppError, fieldMessage } from '../../http/errors.js';
import { messages } from '../../messages.js';
import { canEditSession } from '../../policies/live-sessions.js';
import { VideoUnavailableError } from '../../providers/video/types.js';
import type { DomainEvent } from '../../realtime/publisher.js';
import type { CurrentUser } from '../../sessions/store.js';
import { describeAuction } from '../auctions/service.js';
import { installLiveSubscribers, lotTimerSet, sessionChanged, sessionDeleted } from './events.js';
import { idempotencyKeyOf, keyClaim } from './idempotency.js';
import { addLot, removeLot, reorderLots, setCurrentLot } from './lots.js';
import { presentDetail } from './presenters.js';
import { listSessions, liveDirectory, pickAuctions, readSessionView } from './queries.js';
import { createQuickAuction } from './quick-auction.js';
import { createSession, deleteSession, readEditable, readSession, type SessionChange, sessionNotFound, updateSession } from './sessions.js';
import { startStream, stopStream } from './stream.js';
import { setLotTimer } from './timer.js';

const ZParams = z.object({ id: z.string().max(64) });
const ZVideoQuery = z.object({ role: z.enum(['publisher', 'subscriber'], { error: 'videoRoleInvalid' }) });
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

const liveFields: Record<string, string> = messages.live.fields;

/**
 * Issue 12's API (paths fixed by the issue). GET of one session and the directory are public;
 * everything else is the panel's, and a session the user may not change answers 'Sesión no
 * encontrada' (404) like one that does not exist. Each change answers the session as its editor
 * reads it and is broadcast to the session room after the commit.
 */
export async function liveRoutes(fastify: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, publisher, realtime } = ctx;
  const { present } = ctx.bidding;

  const unsubscribe = installLiveSubscribers({ db, publisher, present });
  fastify.addHook('onClose', async () => unsubscribe());

  // The Live Hub's field codes (src/domain/live.ts) have their own words ('whatsappInvalid' is a group link here).
  fastify.setErrorHandler((err: FastifyError, _req, reply) => {
    if (!hasZodFastifySchemaValidationErrors(err)) throw err;
    const fields: Record<string, string> = {};
    for (const v of err.validation) {
      const key = v.instancePath.split('/').filter(Boolean).join('.') || '_';
      fields[key] ??= liveFields[v.message ?? ''] ?? fieldMessage({ code: v.keyword, message: v.message ?? '' });
    }
    return reply.code(400).send({ error: { code: 'VALIDATION', message: messages.errors.validation, fields } });
  });

  /** The session as `viewer` reads it now, for an answer. */
  async function detailFor(sessionId: string, viewer: CurrentUser | null) {
    const view = await readSessionView(db, sessionId);
    if (!view) throw sessionNotFound();
    return { view, detail: presentDetail(view, { present, canEdit: canEditSession(viewer, view.row), viewerCount: realtime.viewerCount(view.row.id) }) };
  }

  /**
   * After a committed change: publish its events, then the session's whole state (unless `events`
   * already carry all that changed), and answer the editor's view.
   */
  async function changed(
    change: SessionChange,
    actor: CurrentUser,
    before: (view: NonNullable<Awaited<ReturnType<typeof readSessionView>>>) => DomainEvent[] = () => [],
    opts: { wholeState: boolean } = { wholeState: true },
  ) {
    const { view, detail } = await detailFor(change.sessionId, actor);
    const state = opts.wholeState || change.statusChanged ? [sessionChanged(view, present, { statusChanged: change.statusChanged })] : [];
    await publisher.publish([...before(view), ...state]);
    return detail;
  }

  app.get('/api/live-sessions', { preValidation: panel }, async (req) => listSessions(db, currentUser(req)));

  app.get('/api/live-sessions/public', async () => liveDirectory(db));

  /** A repeat of an Idempotency-Key answers as the first did (201, the record as it is now), and says so in a header. */
  const replayed = (reply: FastifyReply) => reply.header('Idempotent-Replayed', 'true');

  app.post('/api/live-sessions', { config: { rateLimit: writeLimit }, preValidation: panel, schema: { body: ZSessionCreate } }, async (req, reply) => {
    const actor = currentUser(req);
    const key = keyClaim({ userId: actor.id, key: idempotencyKeyOf(req), action: 'live_session.create', sessionId: null, body: req.body });
    const made = await createSession(db, { actor, input: req.body, key, ip: req.ip });
    if (made.replayed) {
      const { detail } = await detailFor(made.row.id, actor);
      return replayed(reply).code(201).send(detail);
    }
    return reply.code(201).send(await changed({ sessionId: made.row.id, statusChanged: false }, actor));
  });

  app.get('/api/live-sessions/:id', { schema: { params: ZParams } }, async (req) => (await detailFor(req.params.id, req.user)).detail);

  app.put(
    '/api/live-sessions/:id',
    { config: { rateLimit: writeLimit }, preValidation: panel, schema: { params: ZParams, body: ZSessionUpdate } },
    async (req) => {
      const actor = currentUser(req);
      const change = await updateSession(db, { actor, id: req.params.id, input: req.body, ip: req.ip });
      const detail = await changed(change, actor);
      // 'Finalizada' drops the video as 'Detener' does: nobody keeps watching an ended show.
      if (change.ended) await endVideo(change.sessionId);
      return detail;
    },
  );

  app.delete('/api/live-sessions/:id', { config: { rateLimit: writeLimit }, preValidation: panel, schema: { params: ZParams } }, async (req) => {
    const row = await deleteSession(db, { actor: currentUser(req), id: req.params.id, ip: req.ip });
    await publisher.publish([sessionDeleted(row)]);
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
  app.get('/api/live-sessions/:id/video', { config: { rateLimit: grantLimit }, schema: { params: ZParams, querystring: ZVideoQuery } }, async (req, reply) => {
    const { role } = req.query;
    let session: Awaited<ReturnType<typeof readSession>>;
    if (role === 'publisher') {
      await panel(req, reply);
      session = await readEditable(db, req.params.id, currentUser(req));
    } else {
      session = await readSession(db, req.params.id);
    }
    if (!session) throw sessionNotFound();
    try {
      return await ctx.video.grant(session.id, role);
    } catch (err) {
      if (err instanceof VideoUnavailableError) throw new AppError('VIDEO_UNAVAILABLE', messages.live.videoUnavailable);
      throw err;
    }
  });

  /** 'Iniciar' once the provider accepted the seller's media: live, streamType, lastStreamStart (SPEC §4). */
  app.post(
    '/api/live-sessions/:id/stream/start',
    { config: { rateLimit: writeLimit }, preValidation: panel, schema: { params: ZParams, body: ZStreamStart } },
    async (req) => {
      const actor = currentUser(req);
      const reopen = req.body?.reopen === true;
      return changed(await startStream(db, { actor, sessionId: req.params.id, provider: ctx.video.name, reopen, ip: req.ip }), actor);
    },
  );

  /** 'Detener': scheduled, lastStreamStop, and the provider drops the session's video. */
  app.post('/api/live-sessions/:id/stream/stop', { config: { rateLimit: writeLimit }, preValidation: panel, schema: { params: ZParams } }, async (req) => {
    const actor = currentUser(req);
    const detail = await changed(await stopStream(db, { actor, sessionId: req.params.id, ip: req.ip }), actor);
    await endVideo(detail.session.id);
    return detail;
  });

  app.post(
    '/api/live-sessions/:id/lots',
    { config: { rateLimit: writeLimit }, preValidation: panel, schema: { params: ZParams, body: ZAddLot } },
    async (req, reply) => {
      const actor = currentUser(req);
      const change = await addLot(db, { actor, sessionId: req.params.id, auctionId: req.body.auctionId, ip: req.ip });
      return reply.code(201).send(await changed(change, actor));
    },
  );

  app.delete('/api/live-sessions/:id/lots/:lotId', { config: { rateLimit: writeLimit }, preValidation: panel, schema: { params: ZLotParams } }, async (req) => {
    const actor = currentUser(req);
    return changed(await removeLot(db, { actor, sessionId: req.params.id, lotId: req.params.lotId, ip: req.ip }), actor);
  });

  app.put(
    '/api/live-sessions/:id/lots/order',
    { config: { rateLimit: writeLimit }, preValidation: panel, schema: { params: ZParams, body: ZReorderLots } },
    async (req) => {
      const actor = currentUser(req);
      return changed(await reorderLots(db, { actor, sessionId: req.params.id, lotIds: req.body.lotIds, ip: req.ip }), actor);
    },
  );

  app.post(
    '/api/live-sessions/:id/current',
    { config: { rateLimit: writeLimit }, preValidation: panel, schema: { params: ZParams, body: ZSetCurrentLot } },
    async (req) => {
      const actor = currentUser(req);
      const { lotId, reopen } = req.body;
      return changed(await setCurrentLot(db, { actor, sessionId: req.params.id, lotId, reopen: reopen === true, ip: req.ip }), actor);
    },
  );

  app.post(
    '/api/live-sessions/:id/timer',
    { config: { rateLimit: writeLimit }, preValidation: panel, schema: { params: ZParams, body: ZTimerInput } },
    async (req) => {
      const actor = currentUser(req);
      const set = await setLotTimer(db, { actor, sessionId: req.params.id, seconds: req.body.seconds, ip: req.ip });
      // lotTimer carries the lot's new state: a thousand viewers need not receive every lot again.
      return changed(set, actor, (view) => [lotTimerSet(view, present, set)], { wholeState: false });
    },
  );

  app.post(
    '/api/live-sessions/:id/quick-auction',
    { config: { rateLimit: writeLimit }, preValidation: panel, schema: { params: ZParams, body: ZQuickAuction } },
    async (req, reply) => {
      const actor = currentUser(req);
      const key = keyClaim({ userId: actor.id, key: idempotencyKeyOf(req), action: 'live_session.quick_auction', sessionId: req.params.id, body: req.body });
      const done = await createQuickAuction(db, { actor, sessionId: req.params.id, input: req.body, key, ip: req.ip });
      const auction = (await describeAuction(db, { row: done.row, viewer: actor })) as AuctionDetail;
      if (done.replayed) {
        const detail = req.body.addToSession ? (await detailFor(req.params.id, actor)).detail : null;
        return replayed(reply).code(201).send({ auction, detail });
      }
      await publisher.publish(done.events);
      const { change, timer } = done;
      const detail = change ? await changed(change, actor, (view) => (timer ? [lotTimerSet(view, present, { ...timer, auctionId: done.row.id })] : [])) : null;
      return reply.code(201).send({ auction, detail });
    },
  );

  app.get(
    '/api/live-sessions/:id/picker',
    { config: { rateLimit: pickerLimit }, preValidation: panel, schema: { params: ZParams, querystring: ZPickerQuery } },
    async (req) => {
      const actor = currentUser(req);
      const session = await readEditable(db, req.params.id, actor);
      return pickAuctions(db, { actor, sessionId: session.id, q: req.query.q });
    },
  );
}
