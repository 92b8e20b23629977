import { and, count, desc, eq, gt, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { randomNonce, randomPKCECodeVerifier, randomState } from 'openid-client';
import { z } from 'zod';
import { zText } from '../../../domain/text.js';
import type { AppContext } from '../../context.js';
import { oidcLogins, userProfiles, users } from '../../db/schema.js';
import { fieldsFromIssues } from '../../http/errors.js';
import { messages } from '../../messages.js';
import { SignInError } from '../../providers/identity/types.js';
import { createSession, deleteSession, hashToken, SESSION_COOKIE } from '../../sessions/store.js';
import { signInForDevelopment, signInWithIdentity } from './accounts.js';
import { devSignInPage, signInErrorPage } from './pages.js';
import { safeReturnTo } from './return-to.js';

const STATE_COOKIE = 'martillo_oidc';
const LOGIN_TTL_MS = 10 * 60_000;
const authLimit = { rateLimit: { max: 30, timeWindow: '1 minute' } };

const ZDevSignIn = z.object({
  email: z.email({ error: 'email' }).max(254, { error: 'email' }),
  name: zText({ error: 'name' }).trim().min(1, { error: 'name' }).max(100, { error: 'tooLong' }),
});

export async function authRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { config, db } = ctx;
  const secure = config.publicUrl.protocol === 'https:';
  const redirectUri = new URL('/auth/google/callback', config.publicUrl).href;

  async function openSession(req: FastifyRequest, reply: FastifyReply, userId: string): Promise<void> {
    const session = await createSession(db, {
      userId,
      days: config.sessionDays,
      secret: config.sessionSecret,
      userAgent: req.headers['user-agent'],
      ip: req.ip,
    });
    reply.setCookie(SESSION_COOKIE, session.token, { path: '/', httpOnly: true, sameSite: 'lax', secure, expires: session.expiresAt });
  }

  function failPage(reply: FastifyReply, err: unknown, returnTo: string) {
    const reason = err instanceof SignInError ? err.reason : 'providerFailed';
    if (!(err instanceof SignInError) || reason === 'issuerUnavailable') reply.log.warn({ err }, 'sign-in failed');
    const status = reason === 'issuerUnavailable' ? 502 : 400;
    return reply
      .code(status)
      .type('text/html; charset=utf-8')
      .send(signInErrorPage(messages.signIn[reason], `/auth/google?returnTo=${encodeURIComponent(returnTo)}`));
  }

  app.get('/auth/google', { config: authLimit }, async (req, reply) => {
    const returnTo = safeReturnTo((req.query as { returnTo?: unknown }).returnTo);
    if (!ctx.identity) return reply.redirect(`/auth/dev?returnTo=${encodeURIComponent(returnTo)}`);
    const login = { state: randomState(), nonce: randomNonce(), codeVerifier: randomPKCECodeVerifier(), redirectUri };
    let url: URL;
    try {
      url = await ctx.identity.authorizationUrl(login);
    } catch (err) {
      return failPage(reply, err, returnTo);
    }
    await db.delete(oidcLogins).where(sql`${oidcLogins.expiresAt} < now()`);
    await db.insert(oidcLogins).values({
      stateHash: hashToken(login.state, config.sessionSecret),
      codeVerifier: login.codeVerifier,
      nonce: login.nonce,
      returnTo,
      expiresAt: new Date(Date.now() + LOGIN_TTL_MS),
    });
    // Binds the attempt to this browser, so a callback link cannot sign someone else in.
    reply.setCookie(STATE_COOKIE, login.state, { path: '/auth/google', httpOnly: true, sameSite: 'lax', secure, maxAge: LOGIN_TTL_MS / 1000 });
    return reply.redirect(url.href);
  });

  app.get('/auth/google/callback', { config: authLimit }, async (req, reply) => {
    const query = req.query as Record<string, unknown>;
    const state = typeof query.state === 'string' ? query.state : '';
    const cookieState = req.cookies[STATE_COOKIE];
    reply.clearCookie(STATE_COOKIE, { path: '/auth/google' });
    if (!ctx.identity) return reply.redirect('/auth/dev');
    // The attempt is consumed here whatever happens next: a replayed callback finds nothing.
    const [login] =
      state && cookieState === state
        ? await db
            .delete(oidcLogins)
            .where(and(eq(oidcLogins.stateHash, hashToken(state, config.sessionSecret)), gt(oidcLogins.expiresAt, sql`now()`)))
            .returning()
        : [];
    if (!login) return failPage(reply, new SignInError('stateMismatch'), '/admin');
    try {
      const claims = await ctx.identity.complete(new URL(req.url, config.publicUrl), {
        state,
        nonce: login.nonce,
        codeVerifier: login.codeVerifier,
        redirectUri,
      });
      const { userId, events } = await signInWithIdentity(db, claims, { adminEmails: config.adminEmails, ip: req.ip, requestId: String(req.id) });
      // An invitation taken up changes roles and company: other open sessions follow.
      await ctx.publisher.publish(events);
      await openSession(req, reply, userId);
      return reply.redirect(login.returnTo);
    } catch (err) {
      return failPage(reply, err, login.returnTo);
    }
  });

  app.post('/auth/logout', async (req, reply) => {
    if (req.user) {
      await deleteSession(db, req.user.sessionId);
      ctx.sessions.forgetSession(req.user.sessionId);
      await ctx.realtime.disconnectAuthSession(req.user.sessionId);
    }
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
    return reply.code(204).send();
  });

  if (config.signIn.kind !== 'development' || config.env === 'production') return;

  async function renderDevForm(reply: FastifyReply, form: { returnTo: string; email?: string; name?: string; errors?: Record<string, string> }) {
    const [{ n } = { n: 0 }] = await db.select({ n: count() }).from(users).where(eq(users.isSimulated, false));
    const accounts = await db
      .select({ email: users.email, name: userProfiles.displayName, roles: userProfiles.roles, companyName: userProfiles.companyName })
      .from(users)
      .innerJoin(userProfiles, eq(userProfiles.userId, users.id))
      .where(eq(users.isSimulated, false))
      .orderBy(desc(sql`'admin' = any(${userProfiles.roles})`), desc(sql`'seller' = any(${userProfiles.roles})`), users.email)
      .limit(30);
    return reply
      .code(form.errors ? 400 : 200)
      .type('text/html; charset=utf-8')
      .send(
        devSignInPage({
          ...form,
          emptyDatabase: n === 0,
          accounts: accounts.map((a) => ({ email: a.email, name: a.name ?? a.email, roles: a.roles, companyName: a.companyName })),
        }),
      );
  }

  app.get('/auth/dev', async (req, reply) => renderDevForm(reply, { returnTo: safeReturnTo((req.query as { returnTo?: unknown }).returnTo) }));

  app.post('/auth/dev', { config: authLimit }, async (req, reply) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const returnTo = safeReturnTo(body.returnTo);
    const wantsJson = req.headers['content-type']?.startsWith('application/json') ?? false;
    const parsed = ZDevSignIn.safeParse(body);
    if (!parsed.success) {
      const errors = fieldsFromIssues(parsed.error.issues);
      if (wantsJson) return reply.code(400).send({ error: { code: 'VALIDATION', message: messages.errors.validation, fields: errors } });
      return renderDevForm(reply, { returnTo, email: String(body.email ?? ''), name: String(body.name ?? ''), errors });
    }
    const { userId, events } = await signInForDevelopment(db, parsed.data, { adminEmails: config.adminEmails, ip: req.ip, requestId: String(req.id) });
    await ctx.publisher.publish(events);
    await openSession(req, reply, userId);
    if (wantsJson) return reply.send({ userId, returnTo });
    return reply.redirect(returnTo, 303);
  });
}
