import { isUuid } from '../../domain/ids.js';
import { MOBILE_BREAKPOINT_PX } from '../../domain/live.js';

/** SPEC §2, §9: below 780 px the header's buttons collapse into 'Más'. */
export const COMPACT_QUERY = `(max-width: ${MOBILE_BREAKPOINT_PX - 0.02}px)`;

/**
 * The Hub on a phone (phone/phone-hub.tsx) once a session is loaded: a narrow screen, or a phone
 * turned sideways (a touch screen under 500 px tall), so turning the phone does not swap the layout
 * and end the broadcast's media with it.
 */
export const PHONE_HUB_QUERY = `${COMPACT_QUERY}, (pointer: coarse) and (max-height: 500px)`;

export function isCompactWidth(width: number): boolean {
  return width < MOBILE_BREAKPOINT_PX;
}

/** The loaded session lives in the URL (`/admin/livehub?session=<id>`), so a reload keeps it. */
export const SESSION_PARAM = 'session';

export function sessionIdFromSearch(search: string): string | null {
  const id = new URLSearchParams(search).get(SESSION_PARAM)?.trim() ?? '';
  return isUuid(id) ? id.toLowerCase() : null;
}

/** The search string with the session set (or removed), other parameters kept. */
export function searchWithSession(search: string, id: string | null): string {
  const params = new URLSearchParams(search);
  if (id) params.set(SESSION_PARAM, id);
  else params.delete(SESSION_PARAM);
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** The public link to share (SPEC §2), absolute on this site. */
export function absoluteLink(origin: string, path: string): string {
  return `${origin.replace(/\/+$/, '')}${path}`;
}
