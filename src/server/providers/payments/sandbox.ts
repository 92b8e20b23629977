import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { ProviderStatus } from '../../../domain/payments.js';
import type { Db } from '../../db/connect.js';
import { sandboxPayments } from '../../db/schema.js';
import { pkceChallenge, signManifest, verifySignedWebhook } from './signing.js';
import type { Checkout, CheckoutInput, PaymentProvider, ProviderConnect, ProviderPayment, ProviderTokens, WebhookRequest, WebhookVerdict } from './types.js';

/**
 * The built-in payment provider (the default): no account, no network. Its checkout is our own page
 * `/pay/{paymentId}`, whose three buttons take the payment as approved, rejected or pending (an
 * OXXO voucher). Like Mercado Pago it keeps its own record of each payment (`sandbox_payments`),
 * announces changes with a signed webhook to `/api/webhooks/sandbox`, and answers the server's
 * lookup before anything changes, so the sandbox runs the same code path as the real provider.
 * Its webhooks are signed the way Mercado Pago signs them (signing.ts), and checked by the same code.
 */
export interface SandboxProvider extends PaymentProvider {
  readonly kind: 'sandbox';
  /** The checkout page's button: records the outcome on the provider's side and says what to announce. */
  takePayment(opts: { paymentId: string; status: ProviderStatus; amount: number }): Promise<{ providerPaymentId: string }>;
  /** The headers and body of the webhook announcing a change to one of its payments. */
  webhookFor(providerPaymentId: string): { headers: Record<string, string>; query: Record<string, string>; body: unknown };
}

/** How long a webhook's signature stays valid. */
const TOLERANCE_MS = 5 * 60_000;

export function createSandboxProvider(opts: { db: Db; publicUrl: URL; secret: string; linkHours: number; now?: () => number }): SandboxProvider {
  const now = opts.now ?? Date.now;
  const webhookSecret = createHmac('sha256', opts.secret).update('sandbox-webhooks').digest('hex');
  const codeKey = createHmac('sha256', opts.secret).update('sandbox-connect').digest();
  /** The checkouts made, by payment id (the idempotency key). */
  const checkouts = new Map<string, Checkout>();

  const connect: ProviderConnect = {
    authorizationUrl({ state, codeChallenge, redirectUri }) {
      const url = new URL('/api/mp/sandbox/authorize', opts.publicUrl);
      url.search = new URLSearchParams({ state, code_challenge: codeChallenge, code_challenge_method: 'S256', redirect_uri: redirectUri }).toString();
      return url.href;
    },
    async exchangeCode({ code, codeVerifier }) {
      // The code carries its PKCE challenge, sealed with the server's key (sandboxAuthorizationCode).
      const [payload, mac] = code.split('.');
      const expected = createHmac('sha256', codeKey)
        .update(payload ?? '')
        .digest('base64url');
      if (!payload || !mac || mac.length !== expected.length || !timingSafeEqual(Buffer.from(mac), Buffer.from(expected))) {
        throw new Error('invalid authorization code');
      }
      const { challenge, exp } = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { challenge: string; exp: number };
      if (exp < now()) throw new Error('authorization code expired');
      if (pkceChallenge(codeVerifier) !== challenge) throw new Error('PKCE verifier does not match');
      return tokens();
    },
    async refresh() {
      return tokens();
    },
  };

  function tokens(): ProviderTokens {
    return {
      accessToken: `SANDBOX-${randomBytes(24).toString('base64url')}`,
      refreshToken: `SANDBOX-R-${randomBytes(24).toString('base64url')}`,
      expiresAt: new Date(now() + 180 * 86_400_000),
      userId: `SBX${randomBytes(4).readUInt32BE(0) % 100_000_000}`,
      liveMode: false,
    };
  }

  return {
    kind: 'sandbox',
    connect,

    async createCheckout(input: CheckoutInput): Promise<Checkout> {
      // Idempotent by payment id, as Mercado Pago is by X-Idempotency-Key; the link and id derive from it, so a restart changes only the expiry.
      const made = checkouts.get(input.paymentId) ?? {
        url: new URL(`/pay/${input.paymentId}`, opts.publicUrl).href,
        preferenceId: `sandbox-${input.paymentId}`,
        expiresAt: input.expiresAt ?? new Date(now() + opts.linkHours * 3_600_000),
      };
      checkouts.set(input.paymentId, made);
      return { ...made };
    },

    verifyWebhook(request: WebhookRequest): WebhookVerdict {
      return verifySignedWebhook(request, { secret: webhookSecret, toleranceMs: TOLERANCE_MS, now: now() });
    },

    async fetchPayment(resourceId: string): Promise<ProviderPayment | null> {
      const [row] = await opts.db.select().from(sandboxPayments).where(eq(sandboxPayments.id, resourceId));
      if (!row) return null;
      return { id: row.id, status: row.status, externalReference: row.paymentId, amount: row.amount, updatedAt: row.updatedAt };
    },

    async expireCheckout() {
      // The sandbox's checkout page asks our own payment first: a canceled payment takes nothing.
    },

    async takePayment({ paymentId, status, amount }) {
      // One provider payment per checkout, as an OXXO voucher later paid keeps its id.
      const [existing] = await opts.db.select().from(sandboxPayments).where(eq(sandboxPayments.paymentId, paymentId));
      const at = new Date(now());
      if (existing && existing.status !== 'rejected') {
        await opts.db.update(sandboxPayments).set({ status, amount, updatedAt: at }).where(eq(sandboxPayments.id, existing.id));
        return { providerPaymentId: existing.id };
      }
      // A rejected card leaves its attempt behind; the next try is a new payment, as in Mercado Pago.
      const id = `${Math.floor(now() / 1000)}${randomBytes(3).readUIntBE(0, 3) % 1_000_000}`.padEnd(14, '0');
      await opts.db.insert(sandboxPayments).values({ id, paymentId, status, amount, createdAt: at, updatedAt: at });
      return { providerPaymentId: id };
    },

    webhookFor(providerPaymentId: string) {
      const requestId = randomBytes(16).toString('hex');
      const ts = String(Math.floor(now() / 1000));
      const v1 = signManifest(webhookSecret, { dataId: providerPaymentId, requestId, ts });
      return {
        headers: { 'x-signature': `ts=${ts},v1=${v1}`, 'x-request-id': requestId, 'content-type': 'application/json' },
        query: { 'data.id': providerPaymentId, type: 'payment' },
        body: { action: 'payment.updated', type: 'payment', data: { id: providerPaymentId } },
      };
    },
  };
}

/** The code the sandbox's authorisation page hands back: its PKCE challenge, sealed, valid 10 minutes. */
export function sandboxAuthorizationCode(secret: string, codeChallenge: string, now = Date.now()): string {
  const codeKey = createHmac('sha256', secret).update('sandbox-connect').digest();
  const payload = Buffer.from(JSON.stringify({ challenge: codeChallenge, exp: now + 10 * 60_000 })).toString('base64url');
  return `${payload}.${createHmac('sha256', codeKey).update(payload).digest('base64url')}`;
}
