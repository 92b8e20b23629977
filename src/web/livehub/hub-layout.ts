import { useMediaQuery } from '@mantine/hooks';
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

/** Whether the Hub is on a phone (PHONE_HUB_QUERY), known from the first render so nothing swaps layout after it. */
export function useIsPhoneHub(): boolean {
  return useMediaQuery(PHONE_HUB_QUERY, window.matchMedia?.(PHONE_HUB_QUERY).matches ?? false, { getInitialValueInEffect: false });
}

/**
 * On a phone, a Hub window (create, edit, quick auction) fills the screen, and this class (live-hub.css)
 * on it or on a phone screen (the ended show) makes every field and button a thumb's size, and text
 * fields 16 px, so iOS does not zoom into them.
 */
export const PHONE_CONTROLS_CLASS = 'livehub-phone-controls';

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
