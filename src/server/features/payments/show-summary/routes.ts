import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../../context.js';
import { currentUser, requireRole } from '../../../http/auth-hooks.js';
import { messages } from '../../../messages.js';
import { buyersCsv, csvFilename } from './csv.js';
import { readShowSummary, readSummarySession } from './queries.js';

const ZParams = z.object({ id: z.string().max(64) });
const panel = requireRole('admin', 'seller');
/** The Hub refetches every few seconds during a show; more is a script. */
const readLimit = { max: 120, timeWindow: '1 minute', keyGenerator: (req: FastifyRequest) => req.user?.id ?? req.ip };
const read = { rateLimit: readLimit, fieldMessages: messages.live.fields };

/**
 * A show's summary for the panel: its totals, lots, buyers and chart series, and the table per
 * buyer as CSV. Who may read it, and who reads buyers masked, is readSummarySession's (queries.ts).
 */
export async function showSummaryRoutes(fastify: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db } = ctx;

  app.get('/api/live-sessions/:id/summary', { config: read, preValidation: panel, schema: { params: ZParams } }, async (req) =>
    readShowSummary(db, await readSummarySession(db, req.params.id, currentUser(req))),
  );

  app.get('/api/live-sessions/:id/summary.csv', { config: read, preValidation: panel, schema: { params: ZParams } }, async (req, reply) => {
    const session = await readSummarySession(db, req.params.id, currentUser(req));
    const summary = await readShowSummary(db, session);
    const csv = buyersCsv(summary, { headers: messages.showSummary.csvHeaders, states: messages.showSummary.csvStates });
    return reply
      .type('text/csv; charset=utf-8')
      .header('Content-Disposition', `attachment; filename="${csvFilename(session.row.title, session.row.scheduledAt)}"`)
      .header('Cache-Control', 'private, no-store')
      .send(csv);
  });
}
