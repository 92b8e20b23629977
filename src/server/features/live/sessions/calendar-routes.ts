import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { showCalendar } from '../../../../domain/calendar.js';
import { livePath } from '../../../../domain/live-public.js';
import type { AppContext } from '../../../context.js';
import { messages } from '../../../messages.js';
import { sessionNotFound } from '../../../reads/sessions.js';
import { readSessionView } from './queries.js';

const ZParams = z.object({ id: z.string().max(64) });

/**
 * GET /api/live-sessions/{id}/calendar.ics ('Agregar a mi calendario'): public like the session
 * itself, a file the phone opens in its calendar app, with the show's time in Mexico City and the
 * link to its page.
 */
export async function liveCalendarRoutes(fastify: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get('/api/live-sessions/:id/calendar.ics', { config: { fieldMessages: messages.live.fields }, schema: { params: ZParams } }, async (req, reply) => {
    const view = await readSessionView(ctx.db, req.params.id);
    if (!view) throw sessionNotFound();
    const { row } = view;
    const url = new URL(livePath(row), ctx.config.publicUrl).toString();
    const body = showCalendar({
      id: row.id,
      title: row.title,
      sellerName: view.sellerName,
      scheduledAt: row.scheduledAt.getTime(),
      url,
      host: ctx.config.publicUrl.host,
      now: Date.now(),
    });
    return reply
      .header('content-type', 'text/calendar; charset=utf-8')
      .header('content-disposition', `attachment; filename="martillo-${row.id}.ics"`)
      .header('cache-control', 'no-store')
      .send(body);
  });
}
