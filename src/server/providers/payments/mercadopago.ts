import type { ProviderStatus } from '../../../domain/payments.js';
import { asRecord, idText, str, verifySignedWebhook } from './signing.js';
import {
  type Checkout,
  type CheckoutInput,
  type PaymentProvider,
  type ProviderConnect,
  type ProviderPayment,
  type ProviderTokens,
  ProviderUnavailableError,
  type SellerCredentials,
  type WebhookRequest,
  type WebhookVerdict,
} from './types.js';

/**
 * Mercado Pago Checkout Pro (ARCHITECTURE: payments): preferences for payment links, payments read
 * back from the API on every webhook, `x-signature` webhook verification, and the OAuth (PKCE)
 * connection of a seller's own account. The API and auth base URLs are configurable so tests run
 * against a local fake over real HTTP.
 */
export interface MercadoPagoOptions {
  /** The platform's token (MP_ACCESS_TOKEN). */
  accessToken: string;
  /** MP_CLIENT_ID (OAuth); connect is null without clientId + clientSecret. */
  clientId: string | null;
  /** MP_CLIENT_SECRET. */
  clientSecret: string | null;
  /** MP_WEBHOOK_SECRET. */
  webhookSecret: string;
  /** MP_API_URL, default https://api.mercadopago.com. */
  apiUrl: string;
  /** MP_AUTH_URL, default https://auth.mercadopago.com. */
  authUrl: string;
  /** Our public origin: webhooks and back URLs point here. */
  publicUrl: URL;
  /** Platform fee in % when the checkout uses a connected seller's token (0..50). */
  marketplaceFeePercent: number;
  /** The link expires linkHours after it is created (default 72). */
  linkHours: number;
  /** Max age (and max lead) of an x-signature ts, in seconds (default 300). */
  webhookToleranceSeconds?: number;
  fetch?: typeof fetch;
  /** Clock in epoch milliseconds. */
  now?: () => number;
}

/** How long one API call may take before the provider counts as unavailable. */
const REQUEST_TIMEOUT_MS = 15_000;

/**
 * Mercado Pago's payment statuses onto ours. `authorized` (captured later) and `in_mediation`
 * (a dispute in progress) are not money yet: they wait as pending. Anything unknown waits too.
 */
const STATUS_MAP: Record<string, ProviderStatus> = {
  approved: 'approved',
  pending: 'pending',
  authorized: 'pending',
  in_process: 'in_process',
  in_mediation: 'pending',
  rejected: 'rejected',
  cancelled: 'cancelled',
  refunded: 'refunded',
  charged_back: 'charged_back',
};

export function mapMercadoPagoStatus(status: unknown): ProviderStatus {
  return (typeof status === 'string' && Object.hasOwn(STATUS_MAP, status) ? STATUS_MAP[status] : undefined) ?? 'pending';
}

export function createMercadoPagoProvider(opts: MercadoPagoOptions): PaymentProvider {
  const doFetch = opts.fetch ?? globalThis.fetch;
  const now = opts.now ?? Date.now;
  const apiUrl = opts.apiUrl.replace(/\/+$/, '');
  const authUrl = opts.authUrl.replace(/\/+$/, '');
  const origin = opts.publicUrl.origin;
  const toleranceMs = (opts.webhookToleranceSeconds ?? 300) * 1000;
  const linkHours = Number.isFinite(opts.linkHours) && opts.linkHours > 0 ? opts.linkHours : 72;
  const feePercent = Math.min(50, Math.max(0, Number.isFinite(opts.marketplaceFeePercent) ? opts.marketplaceFeePercent : 0));

  /** One JSON call. Network failures, timeouts, 5xx and 429 are "unavailable"; the caller reads other statuses. */
  async function call(method: 'GET' | 'POST' | 'PUT', path: string, init: { token?: string; body?: unknown; headers?: Record<string, string> }) {
    const headers: Record<string, string> = { accept: 'application/json', ...init.headers };
    if (init.token) headers.authorization = `Bearer ${init.token}`;
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    let res: Response;
    try {
      res = await doFetch(`${apiUrl}${path}`, {
        method,
        headers,
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch (cause) {
      throw new ProviderUnavailableError(`Mercado Pago no responde (${method} ${path})`, { cause });
    }
    let data: unknown = null;
    try {
      const text = await res.text();
      data = text ? JSON.parse(text) : null;
    } catch (cause) {
      if (res.ok) throw new ProviderUnavailableError(`Mercado Pago respondió algo que no es JSON (${method} ${path})`, { cause });
    }
    if (res.status >= 500 || res.status === 429 || res.status === 408) {
      throw new ProviderUnavailableError(`Mercado Pago respondió ${res.status} (${method} ${path}): ${errorMessage(data)}`);
    }
    return { status: res.status, ok: res.ok, data };
  }

  /** Notifications and back URLs point at our own origin. */
  const ourUrl = (path: string) => new URL(path, origin).href;

  async function createCheckout(input: CheckoutInput): Promise<Checkout> {
    const created = now();
    const expiresAt = input.expiresAt ?? new Date(created + linkHours * 3_600_000);
    const token = input.seller ? input.seller.accessToken : opts.accessToken;
    const testMode = input.seller ? !input.seller.liveMode : opts.accessToken.startsWith('TEST-');
    const back = (result: 'success' | 'failure' | 'pending') => `${ourUrl(`/pay/${encodeURIComponent(input.paymentId)}`)}?result=${result}`;
    const body: Record<string, unknown> = {
      items: input.items.map((item) => ({ id: item.auctionId, title: item.auctionName, quantity: 1, currency_id: 'MXN', unit_price: item.amount })),
      payer: { name: input.payer.name, ...(input.payer.email ? { email: input.payer.email } : {}) },
      external_reference: input.paymentId,
      notification_url: ourUrl('/api/webhooks/mercadopago'),
      back_urls: { success: back('success'), failure: back('failure'), pending: back('pending') },
      auto_return: 'approved',
      // The preference's own validity (the link), and the deadline of cash payments (OXXO and the like).
      expires: true,
      expiration_date_from: mexicoTime(new Date(created)),
      expiration_date_to: mexicoTime(expiresAt),
      date_of_expiration: mexicoTime(expiresAt),
    };
    if (input.shippingCost > 0) body.shipments = { cost: input.shippingCost, mode: 'not_specified' };
    if (input.seller) body.marketplace_fee = Math.round(input.grandTotal * feePercent) / 100;

    const res = await call('POST', '/checkout/preferences', { token, body, headers: { 'x-idempotency-key': input.paymentId } });
    if (!res.ok) throw new Error(`Mercado Pago rechazó la preferencia (${res.status}): ${errorMessage(res.data)}`);
    const pref = asRecord(res.data);
    const initPoint = str(pref.init_point);
    const sandboxPoint = str(pref.sandbox_init_point);
    const url = testMode && sandboxPoint ? sandboxPoint : initPoint;
    if (!url) throw new Error('Mercado Pago no devolvió un enlace de pago (init_point)');
    return { url, preferenceId: str(pref.id) ?? null, expiresAt };
  }

  /** Ends the preference's validity now (PUT /checkout/preferences/{id}). */
  async function expireCheckout(preferenceId: string, seller: SellerCredentials | null): Promise<void> {
    const at = mexicoTime(new Date(now()));
    const res = await call('PUT', `/checkout/preferences/${encodeURIComponent(preferenceId)}`, {
      token: seller ? seller.accessToken : opts.accessToken,
      body: { expires: true, expiration_date_to: at, date_of_expiration: at },
    });
    if (!res.ok) throw new Error(`Mercado Pago no venció la preferencia (${res.status}): ${errorMessage(res.data)}`);
  }

  function verifyWebhook(request: WebhookRequest): WebhookVerdict {
    return verifySignedWebhook(request, { secret: opts.webhookSecret, toleranceMs, now: now() });
  }

  async function fetchPayment(resourceId: string, seller: SellerCredentials | null): Promise<ProviderPayment | null> {
    if (!resourceId) return null;
    const res = await call('GET', `/v1/payments/${encodeURIComponent(resourceId)}`, { token: seller ? seller.accessToken : opts.accessToken });
    if (res.status === 404) return null;
    if (!res.ok) throw new Error(`Mercado Pago no entregó el pago ${resourceId} (${res.status}): ${errorMessage(res.data)}`);
    const p = asRecord(res.data);
    const amount = typeof p.transaction_amount === 'number' ? p.transaction_amount : Number.NaN;
    const updated = str(p.date_last_updated) ? new Date(p.date_last_updated as string) : null;
    return {
      id: idText(p.id) ?? resourceId,
      status: mapMercadoPagoStatus(p.status),
      externalReference: str(p.external_reference) ?? null,
      amount: Number.isFinite(amount) ? amount : null,
      updatedAt: updated && !Number.isNaN(updated.getTime()) ? updated : null,
    };
  }

  let connect: ProviderConnect | null = null;
  const { clientId, clientSecret } = opts;
  if (clientId && clientSecret) {
    const tokenCall = async (grant: Record<string, string>): Promise<ProviderTokens> => {
      const requestedAt = now();
      const res = await call('POST', '/oauth/token', { body: { client_id: clientId, client_secret: clientSecret, ...grant } });
      if (!res.ok) throw new Error(`Mercado Pago rechazó la autorización (${res.status}): ${errorMessage(res.data)}`);
      const t = asRecord(res.data);
      const accessToken = str(t.access_token);
      const userId = idText(t.user_id);
      if (!accessToken || !userId) throw new Error('Mercado Pago no devolvió las credenciales del vendedor');
      const expiresIn = typeof t.expires_in === 'number' && t.expires_in > 0 ? t.expires_in : null;
      return {
        accessToken,
        refreshToken: str(t.refresh_token) ?? null,
        expiresAt: expiresIn === null ? null : new Date(requestedAt + expiresIn * 1000),
        userId,
        liveMode: t.live_mode === true,
      };
    };
    connect = {
      authorizationUrl({ state, codeChallenge, redirectUri }) {
        const url = new URL(`${authUrl}/authorization`);
        url.search = new URLSearchParams({
          client_id: clientId,
          response_type: 'code',
          platform_id: 'mp',
          state,
          redirect_uri: redirectUri,
          code_challenge: codeChallenge,
          code_challenge_method: 'S256',
        }).toString();
        return url.href;
      },
      exchangeCode: ({ code, codeVerifier, redirectUri }) =>
        tokenCall({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: codeVerifier }),
      refresh: (refreshToken) => tokenCall({ grant_type: 'refresh_token', refresh_token: refreshToken }),
    };
  }

  return { kind: 'mercadopago', createCheckout, verifyWebhook, fetchPayment, expireCheckout, connect };
}

// ── Helpers ──────────────────────────────────────────────────────────────────

function errorMessage(data: unknown): string {
  const d = asRecord(data);
  const cause = Array.isArray(d.cause) ? asRecord(d.cause[0]).description : undefined;
  return str(d.message) ?? str(cause) ?? str(d.error) ?? 'sin detalle';
}

/** ISO 8601 with Mexico City's offset (UTC−06:00 all year since 2022), as Mercado Pago's examples write dates. */
export function mexicoTime(date: Date): string {
  const shifted = new Date(date.getTime() - 6 * 3_600_000);
  return `${shifted.toISOString().slice(0, 23)}-06:00`;
}
