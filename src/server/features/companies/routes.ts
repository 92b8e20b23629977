import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZCompanyInput, ZCompanyListQuery } from '../../../domain/companies.js';
import { zText } from '../../../domain/text.js';
import type { AppContext } from '../../context.js';
import { currentUser, requireRole } from '../../http/auth-hooks.js';
import { requestContext } from '../../http/request-context.js';
import { messages } from '../../messages.js';
import { companyModerationRoutes } from './moderation-routes.js';
import { getCompany, listCompanies, updateCompany } from './service.js';

/** Any string: an id out of scope or unknown is simply not found (404), not a bad request. */
const ZCompanyParams = z.object({ id: zText().max(200) });

export async function companiesRoutes(fastify: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  // Role before schema: a signed-out or buyer caller learns nothing from validation errors.
  const panel = requireRole('admin', 'seller');

  app.get('/api/companies', { preValidation: panel, schema: { querystring: ZCompanyListQuery } }, async (req) =>
    listCompanies(ctx.db, { actor: currentUser(req), ...req.query }),
  );

  app.get('/api/companies/:id', { preValidation: panel, schema: { params: ZCompanyParams } }, async (req) =>
    getCompany(ctx.db, { actor: currentUser(req), id: req.params.id }),
  );

  app.put(
    '/api/companies/:id',
    { preValidation: panel, schema: { params: ZCompanyParams, body: ZCompanyInput }, config: { fieldMessages: messages.reminders.companyFields } },
    async (req) => updateCompany(ctx.db, { ...requestContext(req), id: req.params.id, input: req.body }),
  );

  await companyModerationRoutes(fastify, ctx);
}
