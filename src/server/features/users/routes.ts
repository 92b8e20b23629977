import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZInvitationInput, ZInvitationListQuery } from '../../../domain/invitations.js';
import { ZUserCompanyInput, ZUserListQuery, ZUserRolesInput } from '../../../domain/users.js';
import type { AppContext } from '../../context.js';
import { currentUser, requireAuth, requireRole } from '../../http/auth-hooks.js';
import { requestContext } from '../../http/request-context.js';
import { acceptInvitation, declineInvitation, listReceivedInvitations } from './invitation-answers.js';
import { createInvitation, listInvitations, revokeInvitation } from './invitations.js';
import { listUsers, setUserCompany, setUserRoles } from './service.js';

/** The id is checked by the service: a malformed one is simply not found (404), not a bad request. */
const ZUserParams = z.object({ id: z.string() });
/** Per user: plenty for an admin inviting a team or a person answering, too few for a script. */
const invitationLimit = { max: 30, timeWindow: '1 minute', keyGenerator: (req: FastifyRequest) => req.user?.id ?? req.ip };

export async function usersRoutes(fastify: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  // Role before schema: a signed-out or non-admin caller learns nothing from validation errors.
  const adminOnly = requireRole('admin');
  // Only where the development sign-in runs (auth/routes.ts), which proves no address anyway; elsewhere the identity provider must have verified it.
  const trustUnverifiedEmail = ctx.config.signIn.kind === 'development' && ctx.config.env !== 'production';

  app.get('/api/users', { preValidation: adminOnly, schema: { querystring: ZUserListQuery } }, async (req) =>
    listUsers(ctx.db, { actor: currentUser(req), ...req.query }),
  );

  app.put('/api/users/:id/roles', { preValidation: adminOnly, schema: { params: ZUserParams, body: ZUserRolesInput } }, async (req) => {
    const { user, events } = await setUserRoles(ctx.db, { ...requestContext(req), userId: req.params.id, roles: req.body.roles });
    await ctx.publisher.publish(events);
    return user;
  });

  app.put('/api/users/:id', { preValidation: adminOnly, schema: { params: ZUserParams, body: ZUserCompanyInput } }, async (req) => {
    const { user, events } = await setUserCompany(ctx.db, { ...requestContext(req), userId: req.params.id, companyId: req.body.companyId });
    await ctx.publisher.publish(events);
    return user;
  });

  // Invitations: a company admin onboards its own sellers; the service scopes every one to the actor's company.
  app.get('/api/invitations', { preValidation: adminOnly, schema: { querystring: ZInvitationListQuery } }, async (req) =>
    listInvitations(ctx.db, { actor: currentUser(req), companyId: req.query.companyId || undefined }),
  );

  app.post('/api/invitations', { config: { rateLimit: invitationLimit }, preValidation: adminOnly, schema: { body: ZInvitationInput } }, async (req, reply) => {
    const invitation = await createInvitation(ctx.db, { ...requestContext(req), input: req.body });
    return reply.code(201).send(invitation);
  });

  app.delete(
    '/api/invitations/:id',
    { config: { rateLimit: invitationLimit }, preValidation: adminOnly, schema: { params: ZUserParams } },
    async (req, reply) => {
      await revokeInvitation(ctx.db, { ...requestContext(req), id: req.params.id });
      return reply.code(204).send();
    },
  );

  // The invited person's side: any signed-in account, and only the invitations sent to its own address.
  app.get('/api/me/invitations', { preValidation: requireAuth }, async (req) =>
    listReceivedInvitations(ctx.db, { actor: currentUser(req), trustUnverifiedEmail }),
  );

  app.post(
    '/api/invitations/:id/accept',
    { config: { rateLimit: invitationLimit }, preValidation: requireAuth, schema: { params: ZUserParams } },
    async (req) => {
      const { answer, events } = await acceptInvitation(ctx.db, { ...requestContext(req), id: req.params.id, trustUnverifiedEmail });
      await ctx.publisher.publish(events);
      return answer;
    },
  );

  app.post(
    '/api/invitations/:id/decline',
    { config: { rateLimit: invitationLimit }, preValidation: requireAuth, schema: { params: ZUserParams } },
    async (req) => declineInvitation(ctx.db, { ...requestContext(req), id: req.params.id, trustUnverifiedEmail }),
  );
}
