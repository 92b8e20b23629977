import type { MpConnectionStatus, ProviderStatus, WonItem } from '../../../domain/payments.js';

/**
 * Where buyers pay (ARCHITECTURE: payments). `sandbox` (the default) is a checkout page of our own
 * that sends signed webhooks to our own endpoint; `mercadopago` is Checkout Pro. One is chosen once
 * from config (providers/index.ts), and the payments feature sees only this interface: it creates a
 * checkout when a draft is finalised, and on every webhook it verifies the signature, then asks the
 * provider what the payment's status is before anything changes.
 */
export interface PaymentProvider {
  readonly kind: 'sandbox' | 'mercadopago';

  /** A checkout for one payment: where the buyer pays, and until when. Idempotent by payment id. */
  createCheckout(input: CheckoutInput): Promise<Checkout>;

  /**
   * Checks a webhook's signature (and its age). Answers what it is about, or why it is refused
   * (the endpoint answers 401 and changes nothing).
   */
  verifyWebhook(request: WebhookRequest): WebhookVerdict;

  /**
   * The provider's own record of a payment, fetched before anything changes (a webhook's body is
   * never trusted). Null when the provider does not know it. Throws when the provider cannot be
   * reached: the webhook answers 5xx so the provider retries later.
   */
  fetchPayment(resourceId: string, seller: SellerCredentials | null): Promise<ProviderPayment | null>;

  /**
   * Stops a checkout from taking payments (its payment was cancelled), with the account that made
   * it. Best effort: a payment that still arrives is recorded and flagged.
   */
  expireCheckout(preferenceId: string, seller: SellerCredentials | null): Promise<void>;

  /** The seller's own account (SPEC §2's payment-provider section), or null if the provider has none. */
  readonly connect: ProviderConnect | null;
}

export interface CheckoutInput {
  /** Also the idempotency key: the same payment always gets the same checkout back (finalize's retries rely on it). */
  paymentId: string;
  items: WonItem[];
  shippingCarrier: string | null;
  shippingCost: number;
  grandTotal: number;
  payer: { name: string; email: string | null };
  /** The seller's connected account: the checkout is created with it (and the platform's fee). */
  seller: SellerCredentials | null;
  /**
   * The buyer's payment deadline (the company's or the session's hours after now): the link stops
   * working then, and cash methods (OXXO) carry it as their own expiry. Absent: the provider's
   * default (MP_LINK_HOURS).
   */
  expiresAt?: Date;
}

export interface Checkout {
  url: string;
  /** The provider's id for this checkout (Mercado Pago's preference id). */
  preferenceId: string | null;
  expiresAt: Date | null;
}

export interface WebhookRequest {
  headers: Record<string, string | string[] | undefined>;
  query: Record<string, string | undefined>;
  body: unknown;
}

export type WebhookVerdict = { ok: true; eventId: string; topic: string; resourceId: string } | { ok: false; reason: 'signature' | 'stale' | 'malformed' };

/** What the provider says about a payment. */
export interface ProviderPayment {
  /** The provider's payment id. */
  id: string;
  status: ProviderStatus;
  /** Our payment id (Mercado Pago's external_reference). */
  externalReference: string | null;
  /** In pesos, as the provider charged it. */
  amount: number | null;
  /** When the provider last changed it (orders deliveries that arrive out of order). */
  updatedAt: Date | null;
}

/** A connected seller's credentials, decrypted, as the provider needs them. */
export interface SellerCredentials {
  userId: string;
  accessToken: string;
  liveMode: boolean;
}

/** The seller connection: OAuth with state and PKCE, tokens refreshed before they expire. */
export interface ProviderConnect {
  authorizationUrl(opts: { state: string; codeChallenge: string; redirectUri: string }): string;
  exchangeCode(opts: { code: string; codeVerifier: string; redirectUri: string }): Promise<ProviderTokens>;
  refresh(refreshToken: string): Promise<ProviderTokens>;
}

export interface ProviderTokens {
  accessToken: string;
  refreshToken: string | null;
  expiresAt: Date | null;
  userId: string;
  liveMode: boolean;
}

/** Thrown when the provider cannot be reached or answers 5xx: the caller retries later. */
/**
 * Sellers' own provider accounts: their tokens, stored sealed and refreshed before they expire.
 * Built by the payments feature (features/payments/bills/accounts.ts); declared here so the app's
 * context names it without naming the feature.
 */
export interface SellerAccounts {
  store(userId: string, tokens: ProviderTokens): Promise<void>;
  /** A connected seller's usable credentials (refreshed if needed), or null: the platform's account is used. */
  credentialsFor(userId: string | null): Promise<SellerCredentials | null>;
  status(userId: string): Promise<MpConnectionStatus>;
  /** The connected seller a provider's webhook speaks for (Mercado Pago sends the collector's user id). */
  credentialsForProviderUser(providerUserId: string | null): Promise<SellerCredentials | null>;
}

export class ProviderUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ProviderUnavailableError';
  }
}
