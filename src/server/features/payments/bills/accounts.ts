import { eq } from 'drizzle-orm';
import type { MpConnectionStatus } from '../../../../domain/payments.js';
import type { SecretBox } from '../../../crypto/secret-box.js';
import type { Db } from '../../../db/connect.js';
import { userProfiles } from '../../../db/schema.js';
import type { PaymentProvider, ProviderTokens, SellerAccounts, SellerCredentials } from '../../../providers/payments/types.js';

/** Refreshed when less than this is left, so a checkout never starts with a token about to expire. */
const REFRESH_BEFORE_MS = 24 * 3_600_000;

/**
 * Sellers' own provider accounts (SPEC §2's payment-provider section). Tokens are stored encrypted
 * (AES-256-GCM, crypto/secret-box.ts) in user_profiles, with the provider's user id and live mode,
 * and refreshed before they expire.
 */
export function createSellerAccounts(opts: { db: Db; box: SecretBox; provider: PaymentProvider }): SellerAccounts {
  const { db, box, provider } = opts;

  async function store(userId: string, tokens: ProviderTokens): Promise<void> {
    await db
      .update(userProfiles)
      .set({
        mpAccessToken: box.seal(tokens.accessToken),
        mpRefreshToken: tokens.refreshToken ? box.seal(tokens.refreshToken) : null,
        mpTokenExpiresAt: tokens.expiresAt,
        mpLiveMode: tokens.liveMode,
        mpUserId: tokens.userId,
        updatedAt: new Date(),
      })
      .where(eq(userProfiles.userId, userId));
  }

  /** A connected seller's usable credentials (refreshed if needed), or null: the platform's account is used. */
  async function credentialsFor(userId: string | null): Promise<SellerCredentials | null> {
    if (!userId) return null;
    const [row] = await db.select().from(userProfiles).where(eq(userProfiles.userId, userId));
    if (!row?.mpAccessToken || !row.mpUserId) return null;
    let accessToken = box.open(row.mpAccessToken);
    let liveMode = row.mpLiveMode ?? false;
    const expiring = row.mpTokenExpiresAt && row.mpTokenExpiresAt.getTime() - Date.now() < REFRESH_BEFORE_MS;
    if (expiring && row.mpRefreshToken && provider.connect) {
      const fresh = await provider.connect.refresh(box.open(row.mpRefreshToken));
      await store(userId, fresh);
      accessToken = fresh.accessToken;
      liveMode = fresh.liveMode;
    }
    return { userId: row.mpUserId, accessToken, liveMode };
  }

  return {
    store,
    credentialsFor,

    async status(userId: string): Promise<MpConnectionStatus> {
      const [row] = await db
        .select({ token: userProfiles.mpAccessToken, liveMode: userProfiles.mpLiveMode, mpUserId: userProfiles.mpUserId })
        .from(userProfiles)
        .where(eq(userProfiles.userId, userId));
      const connected = Boolean(row?.token);
      return { connected, liveMode: connected ? (row?.liveMode ?? false) : null, userId: connected ? (row?.mpUserId ?? null) : null, provider: provider.kind };
    },

    /** The connected seller a provider's webhook speaks for (Mercado Pago sends the collector's user id). */
    async credentialsForProviderUser(providerUserId: string | null): Promise<SellerCredentials | null> {
      if (!providerUserId) return null;
      const [row] = await db.select({ userId: userProfiles.userId }).from(userProfiles).where(eq(userProfiles.mpUserId, providerUserId)).limit(1);
      return row ? credentialsFor(row.userId) : null;
    },
  };
}
export type { SellerAccounts };
