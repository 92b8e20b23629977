import type { SQL } from 'drizzle-orm';
import { canUsePanel } from '../../../domain/roles.js';
import { liveSessions } from '../../db/schema.js';
import { isInScope, type Owned, recordScope, type ScopedActor, scopeWhere, sessionScope } from '../../policies/scope.js';

/**
 * Who may do what with live sessions (SPEC §6, issue 12):
 * - list: SPEC §6's "Live sessions listed" scope (a seller sees its company's sessions and its own);
 * - change (edit, lots, timer, quick auction, promptUnmute): its seller, admins of its company and
 *   platform admins only, which is the auction scope over the session (a co-seller sees, never changes);
 * - read one session: anyone (the public live page).
 */
export function canEditSession(actor: ScopedActor | null, session: Owned): boolean {
  return Boolean(actor && canUsePanel(actor.roles) && isInScope(recordScope(actor), session));
}

/** The panel list's WHERE clause; undefined means every session (platform admins). */
export function sessionListWhere(actor: ScopedActor): SQL | undefined {
  return scopeWhere(sessionScope(actor), liveSessions);
}
