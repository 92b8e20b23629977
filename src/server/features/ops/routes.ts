import type { FastifyInstance } from 'fastify';
import type { PublicConfig } from '../../../domain/api-types.js';
import type { AppContext } from '../../context.js';
import { migrationsApplied } from '../../db/migrate.js';
import { createOpsAccess } from '../../http/ops-access.js';
import type { JobStatus } from '../../pass-loop.js';

/** `jobs`: how the background jobs (src/server/jobs.ts) have gone in this process. */
export async function opsRoutes(app: FastifyInstance, ctx: AppContext, opts: { jobs: () => JobStatus[] }): Promise<void> {
  // The operators (this machine, METRICS_ALLOW, or METRICS_TOKEN): /metrics and the API's description are
  // theirs alone (anyone else reads a 404), and so are the jobs' error messages in /readyz.
  const operators = createOpsAccess(ctx.config.ops, ctx.config.trustProxy);

  /** Liveness: the process answers. */
  app.get('/healthz', async () => ({ status: 'ok' }));

  /**
   * Readiness: the database answers and every migration is applied, and the process is not shutting
   * down. The background jobs are listed with their last run and last error; they do not change the
   * status. An error's message may quote a query: only the operators read it, anyone else its time.
   */
  app.get('/readyz', async (req, reply) => {
    if (ctx.lifecycle.draining) return reply.code(503).send({ status: 'draining' });
    const database = await ctx.database.ping().then(
      () => true,
      () => false,
    );
    const migrations = database && (await migrationsApplied(ctx.db));
    const ready = database && migrations;
    // What runs by itself, and how it went: told, never counted in the answer's status.
    const insider = operators.allows(req);
    const jobs = opts.jobs().map((job) => ({
      name: job.name,
      running: job.running,
      lastRunAt: job.lastRunAt?.toISOString() ?? null,
      lastError: job.lastError ? { message: insider ? job.lastError.message : null, at: job.lastError.at.toISOString() } : null,
    }));
    return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not_ready', checks: { database, migrations }, jobs });
  });

  app.get('/metrics', { onRequest: operators.guard }, async (_req, reply) =>
    reply.type(ctx.metrics.registry.contentType).send(await ctx.metrics.registry.metrics()),
  );

  app.get('/api/openapi.json', { onRequest: operators.guard, schema: { hide: true } }, async () => app.swagger());

  app.get(
    '/api/config',
    async (): Promise<PublicConfig> => ({
      signIn: ctx.config.signIn.kind,
      payments: ctx.config.payments.provider,
      video: { provider: ctx.config.video.provider, iceServers: ctx.config.video.iceServers },
    }),
  );
}
