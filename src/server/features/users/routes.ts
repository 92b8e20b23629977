import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZInvitationInput, ZInvitationListQuery } from '../../../domain/invitations.js';
import { ZUserCompanyInput, ZUserListQuery, ZUserRolesInput } from '../../../domain/users.js';
import type { AppContext } from '../../context.js';
import { currentUser, requireRole } from '../../http/auth-hooks.js';
import { createInvitation, listInvitations, revokeInvitation } from './invitations.js';
import { listUsers, setUserCompany, setUserRoles } from './service.js';

/** The id is checked by the service: a malformed one is simply not found (404), not a bad request. */
const ZUserParams = z.object({ id: z.string() });

export async function usersRoutes(fastify: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  // Role before schema: a signed-out or non-admin caller learns nothing from validation errors.
  const adminOnly = requireRole('admin');

  app.get('/api/users', { preValidation: adminOnly, schema: { querystring: ZUserListQuery } }, async (req) =>
    listUsers(ctx.db, { actor: currentUser(req), ...req.query }),
  );

  app.put('/api/users/:id/roles', { preValidation: adminOnly, schema: { params: ZUserParams, body: ZUserRolesInput } }, async (req) => {
    const { user, events } = await setUserRoles(ctx.db, { actor: currentUser(req), userId: req.params.id, roles: req.body.roles, ip: req.ip });
    await ctx.publisher.publish(events);
    return user;
  });

  app.put('/api/users/:id', { preValidation: adminOnly, schema: { params: ZUserParams, body: ZUserCompanyInput } }, async (req) => {
    const { user, events } = await setUserCompany(ctx.db, { actor: currentUser(req), userId: req.params.id, companyId: req.body.companyId, ip: req.ip });
    await ctx.publisher.publish(events);
    return user;
  });

  // Invitations: a company admin onboards its own sellers; the service scopes every one to the actor's company.
  app.get('/api/invitations', { preValidation: adminOnly, schema: { querystring: ZInvitationListQuery } }, async (req) =>
    listInvitations(ctx.db, { actor: currentUser(req), companyId: req.query.companyId || undefined }),
  );

  app.post('/api/invitations', { preValidation: adminOnly, schema: { body: ZInvitationInput } }, async (req, reply) => {
    const invitation = await createInvitation(ctx.db, { actor: currentUser(req), input: req.body, ip: req.ip });
    return reply.code(201).send(invitation);
  });

  app.delete('/api/invitations/:id', { preValidation: adminOnly, schema: { params: ZUserParams } }, async (req, reply) => {
    await revokeInvitation(ctx.db, { actor: currentUser(req), id: req.params.id, ip: req.ip });
    return reply.code(204).send();
  });
}
