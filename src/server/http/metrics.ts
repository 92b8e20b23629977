import type { FastifyInstance } from 'fastify';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

export interface Metrics {
  registry: Registry;
  socketConnections: Gauge;
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'martillo_' });
  const socketConnections = new Gauge({ name: 'martillo_socket_connections', help: 'Open Socket.IO connections on this instance', registers: [registry] });
  return { registry, socketConnections };
}

/** Counts and times every request by its route pattern (never the raw URL, which would explode labels). */
export function installRequestMetrics(app: FastifyInstance, metrics: Metrics): void {
  const requests = new Counter({
    name: 'martillo_http_requests_total',
    help: 'HTTP requests',
    labelNames: ['method', 'route', 'status'],
    registers: [metrics.registry],
  });
  const duration = new Histogram({
    name: 'martillo_http_request_duration_seconds',
    help: 'HTTP request duration',
    labelNames: ['method', 'route'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [metrics.registry],
  });
  app.addHook('onResponse', async (req, reply) => {
    const route = req.routeOptions.url ?? 'unmatched';
    requests.inc({ method: req.method, route, status: String(reply.statusCode) });
    duration.observe({ method: req.method, route }, reply.elapsedTime / 1000);
  });
}

/** A job as the metrics read it (jobs.ts's status). */
interface JobReading {
  name: string;
  running: boolean;
  runs: number;
  failures: number;
  lastRunAt: Date | null;
  lastError: { at: Date } | null;
}

/**
 * Each background job by name: whether it runs here, its passes and failed passes, and when it last
 * ran and last failed, read from the jobs at each scrape (a job that never ran or never failed has
 * no timestamp).
 */
export function installJobMetrics(metrics: Metrics, read: () => JobReading[]): void {
  const registers = [metrics.registry];
  const labelNames = ['job'] as const;
  const seconds = (at: Date) => at.getTime() / 1000;
  new Gauge({
    name: 'martillo_job_running',
    help: 'Whether the background job runs in this instance (1) or not (0)',
    labelNames,
    registers,
    collect() {
      for (const job of read()) this.set({ job: job.name }, job.running ? 1 : 0);
    },
  });
  new Gauge({
    name: 'martillo_job_last_run_timestamp_seconds',
    help: "When the background job's last pass ended",
    labelNames,
    registers,
    collect() {
      this.reset();
      for (const job of read()) if (job.lastRunAt) this.set({ job: job.name }, seconds(job.lastRunAt));
    },
  });
  new Gauge({
    name: 'martillo_job_last_error_timestamp_seconds',
    help: "When the background job's last failed pass ended",
    labelNames,
    registers,
    collect() {
      this.reset();
      for (const job of read()) if (job.lastError) this.set({ job: job.name }, seconds(job.lastError.at));
    },
  });
  new Counter({
    name: 'martillo_job_runs_total',
    help: 'Passes of the background job, failed ones included',
    labelNames,
    registers,
    collect() {
      this.reset();
      for (const job of read()) this.inc({ job: job.name }, job.runs);
    },
  });
  new Counter({
    name: 'martillo_job_failures_total',
    help: 'Failed passes of the background job',
    labelNames,
    registers,
    collect() {
      this.reset();
      for (const job of read()) this.inc({ job: job.name }, job.failures);
    },
  });
}
