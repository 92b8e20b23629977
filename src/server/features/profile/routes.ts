import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { MeAnswer } from '../../../domain/api-types.js';
import { ZProfileInput } from '../../../domain/profile.js';
import type { AppContext } from '../../context.js';
import { currentUser, requireAuth } from '../../http/auth-hooks.js';
import { requestContext } from '../../http/request-context.js';
import { getMe, getProfileRow, presentProfile, updateProfile } from './service.js';

export async function profileRoutes(fastify: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  // Signed out is an answer ({ user: null }), not a 401: every public page asks, and a 401 is an error in the browser's console.
  app.get('/api/me', async (req): Promise<MeAnswer> => (req.user ? getMe(ctx.db, req.user) : { user: null }));

  app.get('/api/profile', { preHandler: requireAuth }, async (req) => presentProfile(await getProfileRow(ctx.db, currentUser(req).id)));

  app.put('/api/profile', { preHandler: requireAuth, schema: { body: ZProfileInput } }, async (req) => {
    const context = requestContext(req);
    const answer = await updateProfile(ctx.db, { ...context, input: req.body });
    ctx.sessions.forgetUser(context.actor.id);
    return answer;
  });
}
