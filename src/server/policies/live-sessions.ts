import { canUsePanel, isPlatformAdmin } from '../../domain/role-rules.js';
import { isInScope, type Owned, recordScope, type ScopedActor } from './scope.js';

/**
 * Who may change a live session (edit, delete, lots, timer, quick auction, broadcast, promptUnmute,
 * publishing video): its seller and admins of its company (the auction scope over the session: a
 * co-seller sees, never changes), and only while the session's company is the actor's current one;
 * platform admins change any. Shared below the features because the live feature's routes, the
 * realtime server (promptUnmute) and the video providers (publishing) all ask it.
 */
export function canEditSession(actor: ScopedActor | null, session: Owned): boolean {
  if (!actor || !canUsePanel(actor.roles)) return false;
  if (isPlatformAdmin(actor)) return true;
  // A seller moved to another company leaves its old company's shows behind, its own included.
  return session.companyId === actor.companyId && isInScope(recordScope(actor), session);
}
