import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AgoraConfigAnswer, AgoraTokenAnswer } from '../../../../domain/video.js';
import type { AppContext } from '../../../context.js';
import { liveSessions } from '../../../db/schema.js';
import { AppError } from '../../../http/errors.js';
import { messages } from '../../../messages.js';
import { canEditSession } from '../../../policies/live-sessions.js';
import { agoraAccount, buildAgoraToken } from '../../../providers/video/agora.js';
import { sessionNotFound } from '../../../reads/sessions.js';

const ZTokenQuery = z.object({
  // The channel is the session's id (SPEC §7); anything else cannot name a session.
  channel: z.uuid({ error: 'invalid' }),
  role: z.enum(['publisher', 'subscriber'], { error: 'invalid' }),
});

/**
 * Every viewer asks once when the page opens and again before the hour is up; a venue's viewers
 * may share one address, so the limit is per user and generous per address.
 */
const tokenLimit = {
  max: 120,
  timeWindow: '1 minute',
  keyGenerator: (req: FastifyRequest) => req.user?.id ?? req.ip,
  errorResponseBuilder: () => new AppError('RATE_LIMITED', messages.video.rateLimited),
};

/**
 * SPEC §7: GET /api/agora-config (public) and GET /api/agora-token. A publisher token goes only to
 * the session's editors (its seller, its company's admins, platform admins: `canEditSession`);
 * anyone else, signed in or not, gets 403. A subscriber token goes to anyone who names a session.
 * With another provider, or Agora without its keys, the token route answers 503 VIDEO_DISABLED.
 */
export async function agoraRoutes(fastify: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db } = ctx;
  const keys = ctx.config.video.provider === 'agora' ? ctx.config.video.agora : null;

  app.get('/api/agora-config', async (): Promise<AgoraConfigAnswer> => (keys ? { enabled: true, appId: keys.appId } : { enabled: false, appId: null }));

  // Before validation: a server without Agora says so whatever the query.
  async function requireAgora(_req: FastifyRequest, reply: FastifyReply) {
    if (!keys) return reply.code(503).send({ error: { code: 'VIDEO_DISABLED', message: messages.video.disabled } });
  }

  app.get(
    '/api/agora-token',
    { config: { rateLimit: tokenLimit }, onRequest: requireAgora, schema: { querystring: ZTokenQuery } },
    async (req, reply): Promise<AgoraTokenAnswer> => {
      if (!keys) throw new Error('unreachable: requireAgora answers first');
      const { channel, role } = req.query;
      const [session] = await db
        .select({ id: liveSessions.id, sellerId: liveSessions.sellerId, companyId: liveSessions.companyId })
        .from(liveSessions)
        .where(eq(liveSessions.id, channel))
        .limit(1);
      if (!session) throw sessionNotFound();
      if (role === 'publisher' && !canEditSession(req.user, session)) throw new AppError('FORBIDDEN', messages.video.publishForbidden);
      // A token is a credential for an hour: no cache may keep it.
      reply.header('cache-control', 'no-store');
      return buildAgoraToken(keys, { channel: session.id, account: agoraAccount(role, req.user?.id ?? null), role });
    },
  );
}
