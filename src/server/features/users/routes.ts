import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZUserCompanyInput, ZUserListQuery, ZUserRolesInput } from '../../../domain/users.js';
import type { AppContext } from '../../context.js';
import { currentUser, requireRole } from '../../http/auth-hooks.js';
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
}
