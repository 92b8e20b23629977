import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZCategoryInput } from '../../../domain/categories.js';
import { isAdmin, isPlatformAdmin } from '../../../domain/role-rules.js';
import type { AppContext } from '../../context.js';
import { currentUser, requireRole } from '../../http/auth-hooks.js';
import { AppError } from '../../http/errors.js';
import { requestContext } from '../../http/request-context.js';
import { messages } from '../../messages.js';
import { createCategory, deleteCategory, listCategories, renameCategory } from './service.js';

/** The id is checked by the service: a malformed one is simply not found (404), not a bad request. */
const ZCategoryParams = z.object({ id: z.string() });

export async function categoriesRoutes(fastify: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  // Role before schema: a signed-out or non-admin caller learns nothing from validation errors.
  const isAdminRole = requireRole('admin');
  // Every company shares the categories, so only a platform admin (an admin with no company) changes them.
  const adminOnly = async (req: FastifyRequest, reply: FastifyReply) => {
    await isAdminRole(req, reply);
    if (!isPlatformAdmin(currentUser(req))) throw new AppError('FORBIDDEN', messages.categories.platformOnly);
  };

  app.get('/api/categories', async (req) => listCategories(ctx.db, { withCounts: Boolean(req.user && isAdmin(req.user.roles)) }));

  app.post('/api/categories', { preValidation: adminOnly, schema: { body: ZCategoryInput } }, async (req, reply) =>
    reply.code(201).send(await createCategory(ctx.db, { ...requestContext(req), name: req.body.name })),
  );

  app.put('/api/categories/:id', { preValidation: adminOnly, schema: { params: ZCategoryParams, body: ZCategoryInput } }, async (req) =>
    renameCategory(ctx.db, { ...requestContext(req), categoryId: req.params.id, name: req.body.name }),
  );

  app.delete('/api/categories/:id', { preValidation: adminOnly, schema: { params: ZCategoryParams } }, async (req) =>
    deleteCategory(ctx.db, { ...requestContext(req), categoryId: req.params.id }),
  );
}
