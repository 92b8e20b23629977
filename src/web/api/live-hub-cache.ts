import { type LiveSessionDetail, PICKER_MIN_CHARS } from '../../domain/live.js';
import type { LiveSessionData } from './live';

/**
 * Pure cache rules of the Live Hub's mutations (tested without a browser). Every mutation answers
 * the session's whole detail; the answer replaces the cached one unless a room event already
 * brought a newer version while the request was in flight.
 */
export function acceptDetail(cached: LiveSessionData | null | undefined, incoming: LiveSessionDetail, receivedAt: number): LiveSessionData {
  if (cached && cached.session.id === incoming.session.id && cached.session.version > incoming.session.version) {
    // The room's public view is newer; the answer's private fields and rights still hold.
    return { ...cached, canEdit: incoming.canEdit, session: { ...incoming.session, ...cached.session } };
  }
  return { ...incoming, receivedAt };
}

/** The picker's cache key part: what the server would search for, so '  Reloj ' and 'reloj' share one answer. */
export function pickerKeyPart(raw: string): string {
  const q = raw.trim();
  return q.length < PICKER_MIN_CHARS ? '' : q.toLowerCase();
}
