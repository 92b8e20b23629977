import type { Config } from '../config.js';
import type { Db } from '../db/connect.js';
import { createOidcProvider } from './identity/oidc.js';
import type { OidcIdentityProvider } from './identity/types.js';
import { createMercadoPagoProvider } from './payments/mercadopago.js';
import { createSandboxProvider, type SandboxProvider } from './payments/sandbox.js';
import type { PaymentProvider } from './payments/types.js';
import { createLocalStorage } from './storage/local.js';
import { createS3Storage } from './storage/s3.js';
import type { Storage } from './storage/types.js';
import type { VideoProvider, VideoProviderDeps } from './video/types.js';

/**
 * The one place that chooses every provider kind from config, once, at start-up (ARCHITECTURE:
 * "chosen once from config"). Each kind's interface is in `<kind>/types.ts`; the implementations
 * import only that, and the rest of the server sees only the interfaces.
 */
export interface Providers {
  /** The OpenID Connect issuer, or null when development sign-in is in use. */
  identity: OidcIdentityProvider | null;
  storage: Storage;
  video: VideoProvider;
  /** Where buyers pay; `sandbox` is the same provider when it is the local sandbox (its checkout page needs it), else null. */
  payments: { provider: PaymentProvider; sandbox: SandboxProvider | null };
}

export async function createProviders(deps: VideoProviderDeps & { identity?: OidcIdentityProvider | null }): Promise<Providers> {
  const { config, db } = deps;
  const identity = deps.identity !== undefined ? deps.identity : createIdentityProvider(config);
  const storage = createStorage(config);
  const video = await createVideoProvider(deps);
  return { identity, storage, video, payments: createPaymentProvider(config, db) };
}

/** Google (or OIDC_ISSUER) when a client is configured; otherwise null, and development sign-in is used. */
export function createIdentityProvider(config: Pick<Config, 'signIn'>): OidcIdentityProvider | null {
  const signIn = config.signIn;
  return signIn.kind === 'google' ? createOidcProvider({ issuer: signIn.issuer, clientId: signIn.clientId, clientSecret: signIn.clientSecret }) : null;
}

export function createStorage(config: Pick<Config, 'storage' | 'dataDir'>): Storage {
  switch (config.storage.kind) {
    case 'local':
      return createLocalStorage(config.dataDir);
    case 's3':
      return createS3Storage(config.storage);
  }
}

/** Builds the configured video provider; the embedded SFU's child process starts here. */
export async function createVideoProvider(deps: VideoProviderDeps): Promise<VideoProvider> {
  switch (deps.config.video.provider) {
    case 'embedded': {
      const { createEmbeddedVideo } = await import('./video/embedded.js');
      return createEmbeddedVideo(deps);
    }
    case 'janus': {
      const { createJanusVideo } = await import('./video/janus.js');
      return createJanusVideo(deps);
    }
    case 'agora': {
      const { createAgoraVideo } = await import('./video/agora.js');
      return createAgoraVideo(deps);
    }
  }
}

/** Mercado Pago when PAYMENTS_PROVIDER=mercadopago and its credentials are set; otherwise the local sandbox. */
export function createPaymentProvider(config: Config, db: Db): { provider: PaymentProvider; sandbox: SandboxProvider | null } {
  const mp = config.payments.mercadopago;
  if (config.payments.provider === 'mercadopago' && mp) {
    const provider = createMercadoPagoProvider({
      accessToken: mp.accessToken,
      clientId: mp.clientId,
      clientSecret: mp.clientSecret,
      webhookSecret: mp.webhookSecret,
      apiUrl: mp.apiUrl,
      authUrl: mp.authUrl,
      publicUrl: config.publicUrl,
      marketplaceFeePercent: config.payments.marketplaceFeePercent,
      linkHours: config.payments.linkHours,
    });
    return { provider, sandbox: null };
  }
  const sandbox = createSandboxProvider({ db, publicUrl: config.publicUrl, secret: config.sessionSecret, linkHours: config.payments.linkHours });
  return { provider: sandbox, sandbox };
}
