import type { SQL } from 'drizzle-orm';
import { liveSessions } from '../../db/schema.js';
import { type ScopedActor, scopeWhere, sessionScope } from '../../policies/scope.js';

/**
 * Who may do what with live sessions (SPEC §6):
 * - list: SPEC §6's "Live sessions listed" scope (a seller sees its company's sessions and its own);
 * - change: `canEditSession` (policies/live-sessions.ts, shared with the realtime server and the video providers);
 * - read one session: anyone (the public live page).
 */

/** The panel list's WHERE clause; undefined means every session (platform admins). */
export function sessionListWhere(actor: ScopedActor): SQL | undefined {
  return scopeWhere(sessionScope(actor), liveSessions);
}
