import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { MpConnectAnswer } from '../../../../domain/payments.js';
import { recordAudit } from '../../../audit.js';
import type { AppContext } from '../../../context.js';
import { currentUser, requireRole } from '../../../http/auth-hooks.js';
import { AppError } from '../../../http/errors.js';
import { requestContext } from '../../../http/request-context.js';
import { messages } from '../../../messages.js';
import { sandboxAuthorizationCode } from '../../../providers/payments/sandbox.js';
import { pkceChallenge } from '../../../providers/payments/signing.js';
import { escapeHtml, page } from '../../auth/index.js';

const t = messages.connection;
const OAUTH_COOKIE = 'martillo_mp_oauth';
const OAUTH_TTL_MS = 10 * 60_000;
const panel = requireRole('admin', 'seller');

interface PendingConnection {
  state: string;
  verifier: string;
  userId: string;
  exp: number;
}

function resultPage(title: string, message: string, ok: boolean): string {
  return page(
    title,
    `<h1>${escapeHtml(title)}</h1>\n<p role="${ok ? 'status' : 'alert'}">${escapeHtml(message)}</p>\n<a class="button" href="/admin">${escapeHtml(t.back)}</a>`,
  );
}

/**
 * The seller's Mercado Pago connection (SPEC §2 payment-provider section, §7 GET /api/mp/connect):
 * OAuth code flow with state and PKCE. The state and verifier travel in a short-lived cookie sealed
 * with the token key, tied to the user who started it; the callback exchanges the code and stores
 * the tokens encrypted. In sandbox mode the authorisation page is our own, so it works offline.
 */
export async function connectRoutes(fastify: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { provider, accounts, box } = ctx.payments;
  const callbackUrl = new URL('/api/mp/callback', ctx.config.publicUrl).href;
  const secure = ctx.config.publicUrl.protocol === 'https:';

  app.get('/api/mp/status', { preValidation: panel }, async (req) => accounts.status(currentUser(req).id));

  app.get(
    '/api/mp/connect',
    { preValidation: panel, config: { rateLimit: { max: 20, timeWindow: '1 minute' } } },
    async (req, reply): Promise<MpConnectAnswer> => {
      if (!provider.connect) throw new AppError('CONFLICT', t.notConfigured);
      const pending: PendingConnection = {
        state: randomBytes(24).toString('base64url'),
        verifier: randomBytes(48).toString('base64url'),
        userId: currentUser(req).id,
        exp: Date.now() + OAUTH_TTL_MS,
      };
      const codeChallenge = pkceChallenge(pending.verifier);
      reply.setCookie(OAUTH_COOKIE, box.seal(JSON.stringify(pending)), {
        path: '/api/mp',
        httpOnly: true,
        sameSite: 'lax',
        secure,
        maxAge: OAUTH_TTL_MS / 1000,
      });
      return { url: provider.connect.authorizationUrl({ state: pending.state, codeChallenge, redirectUri: callbackUrl }) };
    },
  );

  app.get(
    '/api/mp/callback',
    {
      schema: {
        querystring: z.object({ code: z.string().max(2000).optional(), state: z.string().max(200).optional(), error: z.string().max(200).optional() }),
      },
    },
    async (req, reply) => {
      reply.type('text/html; charset=utf-8');
      const sealed = req.cookies[OAUTH_COOKIE];
      reply.clearCookie(OAUTH_COOKIE, { path: '/api/mp' });
      let pending: PendingConnection | null = null;
      try {
        pending = sealed ? (JSON.parse(box.open(sealed)) as PendingConnection) : null;
      } catch {
        pending = null;
      }
      const user = req.user;
      if (!pending || pending.exp < Date.now() || pending.state !== req.query.state || !user || user.id !== pending.userId) {
        return reply.code(400).send(resultPage(t.failedTitle, t.stateMismatch, false));
      }
      if (req.query.error || !req.query.code || !provider.connect) return reply.code(400).send(resultPage(t.failedTitle, t.denied, false));
      try {
        const tokens = await provider.connect.exchangeCode({ code: req.query.code, codeVerifier: pending.verifier, redirectUri: callbackUrl });
        await accounts.store(user.id, tokens);
        await recordAudit(ctx.db, {
          by: requestContext(req),
          action: 'payment.connect',
          entityType: 'user',
          entityId: user.id,
          after: { provider: provider.kind, providerUserId: tokens.userId, liveMode: tokens.liveMode },
        });
        return reply.send(resultPage(t.connectedTitle, t.connected, true));
      } catch (err) {
        req.log.warn({ err }, 'provider connection failed');
        return reply.code(502).send(resultPage(t.failedTitle, t.failed, false));
      }
    },
  );

  if (provider.kind !== 'sandbox') return;

  /** The sandbox's stand-in for Mercado Pago's authorisation page. */
  app.get(
    '/api/mp/sandbox/authorize',
    { schema: { querystring: z.object({ state: z.string().max(200), code_challenge: z.string().max(200), redirect_uri: z.string().max(500) }) } },
    async (req, reply) => {
      reply.type('text/html; charset=utf-8');
      // Only back to our own callback: never an open redirect.
      if (req.query.redirect_uri !== callbackUrl) return reply.code(400).send(resultPage(t.failedTitle, t.stateMismatch, false));
      const back = (params: Record<string, string>) => `${callbackUrl}?${new URLSearchParams({ ...params, state: req.query.state })}`;
      const code = sandboxAuthorizationCode(ctx.config.sessionSecret, req.query.code_challenge);
      return reply.send(
        page(
          t.sandboxTitle,
          `<h1>${escapeHtml(t.sandboxTitle)}</h1>
<p class="banner">${escapeHtml(t.sandboxBody)}</p>
<a class="button" href="${escapeHtml(back({ code }))}">${escapeHtml(t.sandboxAuthorize)}</a>
<a class="button secondary" href="${escapeHtml(back({ error: 'access_denied' }))}">${escapeHtml(t.sandboxCancel)}</a>`,
        ),
      );
    },
  );
}
