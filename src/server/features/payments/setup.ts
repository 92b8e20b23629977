import type { Config } from '../../config.js';
import { createSecretBox, deriveKey, parseKey } from '../../crypto/secret-box.js';
import type { Db } from '../../db/connect.js';
import type { PaymentProvider } from '../../providers/payments/index.js';
import { createMercadoPagoProvider } from '../../providers/payments/mercadopago.js';
import { createSandboxProvider, type SandboxProvider } from '../../providers/payments/sandbox.js';
import { createSellerAccounts } from './accounts.js';

/** The payment provider chosen by config (ARCHITECTURE: once, at start-up), and what goes with it. */
export function createPayments(config: Config, db: Db) {
  const box = createSecretBox(config.payments.tokenKey ? parseKey(config.payments.tokenKey) : deriveKey(config.sessionSecret, 'provider-tokens'));
  const mp = config.payments.mercadopago;
  let sandbox: SandboxProvider | null = null;
  let provider: PaymentProvider;
  if (config.payments.provider === 'mercadopago' && mp) {
    provider = createMercadoPagoProvider({
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
  } else {
    sandbox = createSandboxProvider({ db, publicUrl: config.publicUrl, secret: config.sessionSecret, linkHours: config.payments.linkHours });
    provider = sandbox;
  }
  return { provider, sandbox, box, accounts: createSellerAccounts({ db, box, provider }) };
}
