import type { SQL } from 'drizzle-orm';
import { canUsePanel, isPlatformAdmin } from '../../../domain/role-rules.js';
import { liveSessions } from '../../db/schema.js';
import { isInScope, type Owned, recordScope, type ScopedActor, scopeWhere, sessionScope } from '../../policies/scope.js';

/**
 * Who may do what with live sessions (SPEC §6, issue 12):
 * - list: SPEC §6's "Live sessions listed" scope (a seller sees its company's sessions and its own);
 * - change (edit, delete, lots, timer, quick auction, broadcast, promptUnmute): its seller and admins
 *   of its company (the auction scope over the session: a co-seller sees, never changes), and only
 *   while the session's company is the actor's current one; platform admins change any;
 * - read one session: anyone (the public live page).
 */
export function canEditSession(actor: ScopedActor | null, session: Owned): boolean {
  if (!actor || !canUsePanel(actor.roles)) return false;
  if (isPlatformAdmin(actor)) return true;
  // A seller moved to another company leaves its old company's shows behind, its own included.
  return session.companyId === actor.companyId && isInScope(recordScope(actor), session);
}

/** The panel list's WHERE clause; undefined means every session (platform admins). */
export function sessionListWhere(actor: ScopedActor): SQL | undefined {
  return scopeWhere(sessionScope(actor), liveSessions);
}
