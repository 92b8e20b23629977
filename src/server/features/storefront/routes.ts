import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZHomeQuery, ZSearchQuery, ZSellerParams } from '../../../domain/storefront.js';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { messages } from '../../messages.js';
import { categoriesCache, readHome, search } from './queries.js';
import { readSellerPage } from './seller-page.js';

/** The front door's field codes (src/domain/storefront.ts) in Spanish. */
const storefront = { fieldMessages: messages.storefront.fields };
/**
 * The search runs as a buyer types (the page debounces): generous per person or address, since many
 * phones share one carrier address, and tight enough that a script cannot make it the database's work.
 */
const searchLimit = {
  max: 120,
  timeWindow: '1 minute',
  keyGenerator: (req: FastifyRequest) => req.user?.id ?? req.ip,
  errorResponseBuilder: () => new AppError('RATE_LIMITED', messages.storefront.rateLimited),
};

/**
 * The buyers' front door, public: the home, the search and a seller's page. A signed-in viewer's
 * session only adds `reminded` and `following`. The home and the seller's page read a bounded
 * number of rows (a few dozen shows) and the server inlines them into the first HTML (through
 * `inject`, from one address), so only the search is rate-limited.
 */
export async function storefrontRoutes(fastify: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, realtime } = ctx;
  const viewers = (sessionId: string) => realtime.viewerCount(sessionId);
  const categories = categoriesCache(db);

  app.get('/api/home', { config: storefront, schema: { querystring: ZHomeQuery } }, async (req) =>
    readHome(db, { query: req.query, viewerId: req.user?.id ?? null, viewers, categories }),
  );

  app.get('/api/search', { config: { ...storefront, rateLimit: searchLimit }, schema: { querystring: ZSearchQuery } }, async (req) => search(db, req.query));

  app.get('/api/sellers/:slug', { config: storefront, schema: { params: ZSellerParams } }, async (req) =>
    readSellerPage(db, { slug: req.params.slug, viewerId: req.user?.id ?? null, viewers }),
  );
}
