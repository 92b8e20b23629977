import type { Config } from '../../../config.js';
import { createSecretBox, deriveKey, parseKey } from '../../../crypto/secret-box.js';
import type { Db } from '../../../db/connect.js';
import type { SandboxProvider } from '../../../providers/payments/sandbox.js';
import type { PaymentProvider } from '../../../providers/payments/types.js';
import { createSellerAccounts } from './accounts.js';

/**
 * What the payments feature keeps beside its provider (chosen in providers/index.ts): the key
 * sealing sellers' provider tokens, and sellers' connected accounts.
 */
export function createPayments(config: Config, db: Db, chosen: { provider: PaymentProvider; sandbox: SandboxProvider | null }) {
  const box = createSecretBox(config.payments.tokenKey ? parseKey(config.payments.tokenKey) : deriveKey(config.sessionSecret, 'provider-tokens'));
  const { provider, sandbox } = chosen;
  return { provider, sandbox, box, accounts: createSellerAccounts({ db, box, provider }) };
}
