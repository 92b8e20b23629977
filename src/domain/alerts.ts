import { z } from 'zod';
import type { SessionStatus } from './live-public.js';
import { PUSH_TTL_SECONDS } from './push.js';

/**
 * Following a seller, 'Avísame' on a show, and the bell. A buyer follows a seller and bookmarks a
 * scheduled show; when the show goes live (and, for a bookmark, 15 minutes before its time) each of
 * them is told once per show: a row in the bell and, where the browser subscribed, a Web Push.
 */

/** A bookmarked show's 'soon' alert goes out this long before its time. */
export const SOON_BEFORE_MS = 15 * 60_000;
/** A show alert's push is stale after this: a late "en vivo" is noise (the push's TTL, push.ts). */
export const ALERT_PUSH_TTL_MS = PUSH_TTL_SECONDS * 1000;
/** The bell lists the newest this many. */
export const BELL_LIMIT = 50;
/** POST /api/notifications/read takes at most this many ids. */
export const READ_IDS_MAX = 100;

export const NOTIFICATION_KINDS = ['show_live', 'show_soon', 'application_approved', 'application_declined'] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** POST /api/notifications/read: some of one's own notifications by id (`ids`), or all of them (`all: true`). */
export const ZReadNotifications = z
  .object({
    ids: z
      .array(z.uuid({ error: 'notificationId' }), { error: 'notificationIds' })
      .min(1, { error: 'notificationIds' })
      .max(READ_IDS_MAX, { error: 'notificationIdsMax' })
      .optional(),
    all: z.literal(true, { error: 'notificationIds' }).optional(),
  })
  .strict()
  .refine((v) => (v.ids ? 1 : 0) + (v.all ? 1 : 0) === 1, { error: 'notificationIds' });
export type ReadNotificationsInput = z.infer<typeof ZReadNotifications>;

/** POST/DELETE /api/sellers/{id}/follow. `followers` is a count: a seller never sees who. */
export interface FollowAnswer {
  following: boolean;
  followers: number;
}

/** POST/DELETE /api/live-sessions/{id}/reminder ('Avísame'). */
export interface ReminderAnswer {
  reminded: boolean;
}

/** A show as 'Mis alertas' lists it (the home's show, without its lots). */
export interface AlertShow {
  id: string;
  title: string;
  /** The show's public link (livePath). */
  url: string;
  sellerId: string;
  sellerName: string;
  sellerSlug: string | null;
  status: SessionStatus;
  /** epoch ms */
  scheduledAt: number;
  coverUrl: string | null;
  /** Viewers now (0 unless live). */
  viewerCount: number;
  /** The signed-in buyer bookmarked it ('Avísame'). */
  reminded: boolean;
}

/** A followed seller on 'Mis alertas': their live show, if one is on, and their next scheduled one. */
export interface FollowedSeller {
  id: string;
  slug: string | null;
  name: string;
  companyName: string | null;
  live: AlertShow | null;
  nextShow: AlertShow | null;
}

/** GET /api/me/following: the sellers one follows and the shows one bookmarked (live or still to come). */
export interface MyFollowing {
  sellers: FollowedSeller[];
  shows: AlertShow[];
}

/** One row of the bell. */
export interface NotificationItem {
  id: string;
  kind: NotificationKind;
  title: string;
  body: string;
  url: string;
  /** epoch ms */
  createdAt: number;
  /** epoch ms; null while unread */
  readAt: number | null;
}

/** GET /api/notifications: the newest first (at most BELL_LIMIT), and how many of all are unread. */
export interface NotificationsAnswer {
  items: NotificationItem[];
  unread: number;
}

/** POST /api/notifications/read */
export interface ReadAnswer {
  unread: number;
}

const timeFormat = new Intl.DateTimeFormat('es-MX', { hour: 'numeric', minute: '2-digit', hour12: true, timeZone: 'America/Mexico_City' });

/** The bell's and the push's words for a show alert: the show, its seller and when, nothing personal. */
export function showAlertText(kind: 'live' | 'soon', show: { title: string; sellerName: string; scheduledAt: number }): { title: string; body: string } {
  if (kind === 'live') return { title: `${show.sellerName} está en vivo: ${show.title}`, body: 'Toca para entrar al show.' };
  return { title: `${show.title} empieza pronto`, body: `${show.sellerName} · a las ${timeFormat.format(new Date(show.scheduledAt))} (hora del centro)` };
}
