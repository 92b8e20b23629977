import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import fastifyHelmet from '@fastify/helmet';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifySwagger from '@fastify/swagger';
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { SESSION_CACHE_EVENT } from '../domain/realtime.js';
import { createBidBatcher } from './bidding/batcher.js';
import { createBulkPacer } from './bulk-pacer.js';
import type { Config } from './config.js';
import type { AppContext } from './context.js';
import { connectDatabase, type Database } from './db/connect.js';
import { migrateDatabase } from './db/migrate.js';
import { alertsRoutes } from './features/alerts/routes.js';
import { auctionsRoutes } from './features/auctions/routes.js';
import { authRoutes } from './features/auth/routes.js';
import { bidsRoutes } from './features/bids/routes.js';
import { categoriesRoutes } from './features/categories/routes.js';
import { createChatPresenter } from './features/chat/presenters.js';
import { chatRoutes } from './features/chat/routes.js';
import { companiesRoutes } from './features/companies/routes.js';
import { liveRoutes } from './features/live/routes.js';
import { liveCalendarRoutes } from './features/live/sessions/calendar-routes.js';
import { agoraRoutes } from './features/live/show/agora-routes.js';
import { mediaRoutes, UPLOADS_PATH } from './features/media/routes.js';
import { opsRoutes } from './features/ops/routes.js';
import { connectRoutes } from './features/payments/bills/connect-routes.js';
import { paymentsRoutes } from './features/payments/bills/routes.js';
import { createPayments } from './features/payments/bills/setup.js';
import { purchasesRoutes } from './features/payments/purchases/routes.js';
import { remindersRoutes } from './features/payments/reminders/routes.js';
import { whatsappWebhookPlugin } from './features/payments/reminders/webhook-routes.js';
import { showBillingRoutes } from './features/payments/show-billing/routes.js';
import { showSummaryRoutes } from './features/payments/show-summary/routes.js';
import { unpaidRoutes } from './features/payments/unpaid/routes.js';
import { prebidsRoutes } from './features/prebids/routes.js';
import { profileRoutes } from './features/profile/routes.js';
import { pushRoutes } from './features/push/index.js';
import { replaysRoutes } from './features/replays/index.js';
import { sellerApplicationsRoutes } from './features/seller-applications/routes.js';
import { createShare, shareRoutes } from './features/share/index.js';
import { storefrontRoutes } from './features/storefront/routes.js';
import { usersRoutes } from './features/users/routes.js';
import { installSessionLoader } from './http/auth-hooks.js';
import { installOriginCheck } from './http/csrf.js';
import { clientErrorHandler, frameworkErrors, installErrorHandler } from './http/errors.js';
import { createMetrics, installJobMetrics, installRequestMetrics } from './http/metrics.js';
import { createOpsAccess } from './http/ops-access.js';
import { installPermissionsPolicy } from './http/permissions-policy.js';
import { installRequestIdHeader, requestIdGenerator } from './http/request-id.js';
import { installBodyTimeout, serverTimeouts } from './http/timeouts.js';
import { type JobName, jobs as jobRegistry, startJobs } from './jobs.js';
import type { OidcIdentityProvider } from './providers/identity/types.js';
import { createProviders } from './providers/index.js';
import { createWhatsAppClient } from './providers/whatsapp/cloud.js';
import { installReactions } from './reactions.js';
import { createBidBroadcaster } from './realtime/bid-broadcaster.js';
import { createBidPresenter } from './realtime/bid-presenter.js';
import { createRealtime } from './realtime/index.js';
import { createPublisher } from './realtime/publisher.js';
import { createSessionCache } from './sessions/cache.js';
import { webRoutes } from './web/static.js';

/**
 * Pages run only our own scripts. Styles allow inline (Mantine sets CSS variables inline); images
 * may come from any https host (storage, Google avatars), and from an http bucket the config names. connect-src and media-src open only to
 * what the configured video provider needs (its `cspConnectSrc`: Janus's address, Agora's hosts).
 */
function contentSecurityPolicyDirectives(videoOrigins: string[], imageOrigins: string[] = []): Record<string, string[]> {
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:', 'blob:', 'https:', ...imageOrigins],
    'media-src': ["'self'", 'blob:', ...videoOrigins],
    'font-src': ["'self'", 'data:'],
    'connect-src': ["'self'", ...videoOrigins],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
    'base-uri': ["'self'"],
    'object-src': ["'none'"],
  };
}

/** Beyond any https host: the bucket's own address when it is plain http (a MinIO on the local network). */
function imageOrigins(config: Config): string[] {
  return config.storage.kind === 's3' && config.storage.publicUrl.startsWith('http:') ? [new URL(config.storage.publicUrl).origin] : [];
}

/** The policy as the Content-Security-Policy header carries it (helmet writes it the same way). */
export function contentSecurityPolicy(videoOrigins: string[], imageOrigins: string[] = []): string {
  return Object.entries(contentSecurityPolicyDirectives(videoOrigins, imageOrigins))
    .map(([name, values]) => `${name} ${values.join(' ')}`)
    .join(';');
}

/**
 * The security headers, by @fastify/helmet, on every response that reaches routing (before any
 * hook or route can refuse it). The policy above goes on all of them, not only on HTML as it did
 * when these headers were set by hand: it acts only where a response is shown as a page. Then
 * nosniff, Referrer-Policy, X-Frame-Options DENY,
 * and Strict-Transport-Security when PUBLIC_URL is https (two years, as the HSTS preload list
 * asks; includeSubDomains so no http subdomain can plant cookies for this host; `preload` is left
 * to the operator: it cannot be undone quickly). Helmet's other defaults (Cross-Origin-Opener- and
 * -Resource-Policy, Origin-Agent-Cluster, X-DNS-Prefetch-Control, X-Download-Options,
 * X-Permitted-Cross-Domain-Policies, X-XSS-Protection) are off: the app never sent them, and each
 * would change what browsers allow.
 */
function securityHeaders(videoOrigins: string[], imageOrigins: string[], isHttps: boolean) {
  return {
    contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicyDirectives(videoOrigins, imageOrigins) },
    strictTransportSecurity: isHttps ? { maxAge: 63_072_000, includeSubDomains: true } : false,
    xContentTypeOptions: true,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' as const },
    xFrameOptions: { action: 'deny' as const },
    crossOriginEmbedderPolicy: false,
    crossOriginOpenerPolicy: false,
    crossOriginResourcePolicy: false,
    originAgentCluster: false,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xPermittedCrossDomainPolicies: false,
    xXssProtection: false,
  };
}

export interface BuildOptions {
  config: Config;
  /** An already open database (tests share one); otherwise one is opened from config and closed with the app. */
  database?: Database;
  /** Overrides the issuer built from config (tests point it at a mock issuer). */
  identity?: OidcIdentityProvider | null;
  /** Serve the built web app from this folder. */
  webDir?: string;
  /** false: silent (tests); 'pretty': readable lines for a terminal; default: JSON lines. */
  logger?: false | 'pretty' | 'json';
  /** The background jobs this instance runs (jobs.ts): 'all' by default, as in production; a test names the few it needs. */
  jobs?: readonly JobName[] | 'all';
}

/** Builds the whole server: plugins, then each feature's routes. The caller listens. */
export async function buildApp(opts: BuildOptions): Promise<{ app: FastifyInstance; ctx: AppContext }> {
  const { config } = opts;
  const app = Fastify({
    logger:
      opts.logger === false
        ? false
        : {
            level: config.logLevel,
            ...(opts.logger === 'pretty' ? { transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname' } } } : {}),
          },
    // Requests are counted in /metrics; one log line each is noise unless debugging.
    logController: new LogController({ disableRequestLogging: !['debug', 'trace'].includes(config.logLevel) }),
    trustProxy: config.trustProxy,
    genReqId: requestIdGenerator(config.trustProxy),
    bodyLimit: 1024 * 1024,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    // Close hooks run under this timeout too, and preClose may wait 10 s for requests in flight.
    pluginTimeout: 30_000,
    // Errors Fastify and Node answer before the error handler: in the product's format too.
    frameworkErrors,
    clientErrorHandler,
    ...serverTimeouts(config.timeouts),
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const ownsDatabase = !opts.database;
  const database = opts.database ?? (await connectDatabase(config.database));
  try {
    await migrateDatabase(database);
  } catch (err) {
    if (ownsDatabase) await database.close();
    throw err;
  }

  const metrics = createMetrics();
  const realtime = await createRealtime(app.server, {
    db: database.db,
    metrics,
    publicUrl: config.publicUrl,
    redisUrl: config.redisUrl,
    sessionSecret: config.sessionSecret,
    trustProxy: config.trustProxy,
    viewersPerAddress: config.viewers.perAddress,
    log: (err, count) => app.log.error({ err, count }, 'realtime: redis'),
  });
  const {
    identity,
    storage,
    video,
    payments: paymentProvider,
  } = await createProviders({
    config,
    db: database.db,
    realtime,
    log: app.log,
    ...(opts.identity !== undefined ? { identity: opts.identity } : {}),
  });
  const present = createBidPresenter(config.sessionSecret);
  const broadcaster = createBidBroadcaster(realtime, present);
  const payments = createPayments(config, database.db, paymentProvider);
  const sessions = createSessionCache({
    peers: { send: (message) => realtime.toPeers(SESSION_CACHE_EVENT, message), onMessage: (handler) => realtime.onPeer(SESSION_CACHE_EVENT, handler) },
  });
  const publisher = createPublisher({ realtime, sessions, broadcaster, log: app.log });
  const ctx: AppContext = {
    config,
    database,
    db: database.db,
    realtime,
    publisher,
    metrics,
    identity,
    storage,
    video,
    sessions,
    bidding: { present, broadcaster, batcher: createBidBatcher(database.db) },
    payments,
    whatsapp: config.whatsapp ? createWhatsAppClient(config.whatsapp) : null,
    lifecycle: { draining: false },
  };
  // The jobs start once the routes are registered (below); until then /readyz and /metrics list them as not running.
  const jobDeps = { ctx, log: app.log, bulk: createBulkPacer() };
  let running = startJobs(jobRegistry, [], jobDeps);

  installRequestIdHeader(app);
  // First, so its onRequest hook runs before any other can answer (a refused origin, a 404).
  await app.register(fastifyHelmet, securityHeaders(video.cspConnectSrc, imageOrigins(config), config.publicUrl.protocol === 'https:'));
  // Camera and microphone on the Live Hub only; what the product never uses, nowhere.
  installPermissionsPolicy(app);
  await app.register(fastifyCookie);
  await app.register(fastifyFormbody, { bodyLimit: 16 * 1024 });
  await app.register(fastifyRateLimit, { global: false });
  // OpenAPI from the routes' own Zod schemas, served at /api/openapi.json.
  await app.register(fastifySwagger, {
    openapi: { info: { title: 'Martillo API', version: '1' }, servers: [{ url: config.publicUrl.origin }] },
    transform: jsonSchemaTransform,
  });
  installErrorHandler(app);
  installOriginCheck(app, config.publicUrl);
  installBodyTimeout(app, config.timeouts, (req) => req.routeOptions.url === UPLOADS_PATH);
  installSessionLoader(app, database.db, config.sessionSecret, sessions);
  installRequestMetrics(app, metrics);
  installJobMetrics(metrics, () => running.status());

  await app.register(async (scope) => opsRoutes(scope, ctx, { jobs: () => running.status() }));
  await app.register(async (scope) => authRoutes(scope, ctx));
  await app.register(async (scope) => profileRoutes(scope, ctx));
  await app.register(async (scope) => categoriesRoutes(scope, ctx));
  await app.register(async (scope) => usersRoutes(scope, ctx));
  await app.register(async (scope) => sellerApplicationsRoutes(scope, ctx));
  await app.register(async (scope) => companiesRoutes(scope, ctx));
  await app.register(async (scope) => auctionsRoutes(scope, ctx));
  await app.register(async (scope) => bidsRoutes(scope, ctx));
  await app.register(async (scope) => prebidsRoutes(scope, ctx));
  await app.register(async (scope) => liveRoutes(scope, ctx));
  await app.register(async (scope) => liveCalendarRoutes(scope, ctx));
  await app.register(async (scope) => chatRoutes(scope, ctx));
  await app.register(async (scope) => agoraRoutes(scope, ctx));
  await app.register(async (scope) => mediaRoutes(scope, ctx));
  await app.register(async (scope) => paymentsRoutes(scope, ctx));
  await app.register(async (scope) => connectRoutes(scope, ctx));
  await app.register(async (scope) => unpaidRoutes(scope, ctx));
  await app.register(async (scope) => remindersRoutes(scope, ctx));
  await app.register(async (scope) => whatsappWebhookPlugin(scope, ctx));
  await app.register(async (scope) => showSummaryRoutes(scope, ctx));
  await app.register(async (scope) => purchasesRoutes(scope, ctx));
  await app.register(async (scope) => showBillingRoutes(scope, ctx));
  await app.register(async (scope) => alertsRoutes(scope, ctx));
  await app.register(async (scope) => storefrontRoutes(scope, ctx));
  await app.register(async (scope) => replaysRoutes(scope, ctx));
  // Link previews: the card pictures' routes, and each page's og: tags (handed to the web layer, which imports no feature).
  const share = createShare({ db: database.db, storage, publicUrl: config.publicUrl });
  await app.register(async (scope) => shareRoutes(scope, { share }));
  await app.register(async (scope) => pushRoutes(scope, ctx));
  if (opts.webDir) {
    const sourceMaps = config.ops.serveSourceMaps ? createOpsAccess(config.ops, config.trustProxy) : null;
    await app.register(async (scope) => webRoutes(scope, { distDir: opts.webDir as string, sourceMaps, pageHead: share.pageHead }));
  }

  // Everything that runs by itself: the event reactions, then the jobs (jobs.ts, reactions.ts).
  const uninstallReactions = installReactions(publisher, {
    db: database.db,
    publisher,
    bidding: ctx.bidding,
    video,
    chat: createChatPresenter(config.sessionSecret),
  });
  running = startJobs(jobRegistry, opts.jobs ?? 'all', jobDeps);

  // Shutdown: new requests get 503, requests in flight finish, then the sockets close (an open
  // websocket would keep the HTTP server from closing), then the HTTP server, then the database.
  const inFlight = trackInFlight(app);
  app.addHook('preClose', async () => {
    await inFlight.drained(10_000);
    await running.stop();
    broadcaster.stop();
    await video.close();
    await realtime.close();
  });
  app.addHook('onClose', async () => {
    uninstallReactions();
    if (ownsDatabase) await database.close();
  });
  return { app, ctx };
}

/** Counts HTTP requests whose response has not finished, so shutdown can wait for them. */
function trackInFlight(app: FastifyInstance): { drained(timeoutMs: number): Promise<void> } {
  let count = 0;
  const waiters: (() => void)[] = [];
  app.addHook('onRequest', async (_req, reply) => {
    count++;
    reply.raw.once('close', () => {
      count--;
      if (count === 0) for (const w of waiters.splice(0)) w();
    });
  });
  return {
    drained(timeoutMs) {
      if (count === 0) return Promise.resolve();
      return new Promise((resolve) => {
        const timer = setTimeout(resolve, timeoutMs);
        waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    },
  };
}
