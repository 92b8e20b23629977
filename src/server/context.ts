import type { BidBatcher } from './bidding/batcher.js';
import type { Config } from './config.js';
import type { SecretBox } from './crypto/secret-box.js';
import type { Database, Db } from './db/connect.js';
import type { Metrics } from './http/metrics.js';
import type { OidcIdentityProvider } from './providers/identity/types.js';
import type { SandboxProvider } from './providers/payments/sandbox.js';
import type { PaymentProvider, SellerAccounts } from './providers/payments/types.js';
import type { Storage } from './providers/storage/types.js';
import type { VideoProvider } from './providers/video/types.js';
import type { WhatsAppClient } from './providers/whatsapp/cloud.js';
import type { BidBroadcaster } from './realtime/bid-broadcaster.js';
import type { BidPresenter } from './realtime/bid-presenter.js';
import type { Realtime } from './realtime/index.js';
import type { Publisher } from './realtime/publisher.js';
import type { SessionCache } from './sessions/cache.js';

/**
 * What every feature's routes need, built once at start-up by app.ts (the composition root). It
 * names layers below the features only: the bid engine's batcher (bidding/), the bid presenter and
 * broadcaster (realtime/), sellers' accounts as the payment providers declare them.
 */
export interface AppContext {
  config: Config;
  database: Database;
  db: Db;
  realtime: Realtime;
  /** The one path after commit: services return events, routes and the scheduler publish them (realtime/publisher.ts). */
  publisher: Publisher;
  metrics: Metrics;
  /** The OpenID Connect issuer, or null when development sign-in is in use. */
  identity: OidcIdentityProvider | null;
  /** Uploaded files: local disk or S3-compatible storage. */
  storage: Storage;
  /** Live video: the configured provider (embedded SFU, Janus or Agora). */
  video: VideoProvider;
  /** Signed-in users by token for up to a minute; drop a user's entries when their roles or profile change. */
  sessions: SessionCache;
  /** What leaves the server about bids (masked, pseudonymous) and how it is broadcast. */
  bidding: { present: BidPresenter; broadcaster: BidBroadcaster; batcher: BidBatcher };
  /** Where buyers pay (sandbox or Mercado Pago), sellers' connected accounts, and the key sealing their tokens. */
  payments: { provider: PaymentProvider; sandbox: SandboxProvider | null; accounts: SellerAccounts; box: SecretBox };
  /** The WhatsApp Cloud API when configured (WHATSAPP_*); null: reminders go out by hand through wa.me links. */
  whatsapp: WhatsAppClient | null;
  /** `draining`: the process is about to shut down (SIGTERM): /readyz answers 503 so a load balancer stops sending here, the rest is still served. */
  lifecycle: { draining: boolean };
}
