import { z } from 'zod';

/**
 * Web Push: what a browser's subscription must look like, what a push carries, and the rules the
 * sender keeps (how long an alert lives, one topic per show). The address rules (no endpoint on
 * the server's own network) need name resolution and live in the server's push feature.
 */

/** How long a show's alert is worth delivering (seconds): the push's TTL and the delivery's expiry. A stale "en vivo" is noise. */
export const PUSH_TTL_SECONDS = 15 * 60;
/** Subscriptions one account keeps (a phone, a tablet, a few browsers); the oldest goes when a new one comes. */
export const MAX_PUSH_SUBSCRIPTIONS_PER_USER = 10;
/** An endpoint's longest accepted length (real ones are 150–500 characters). */
export const MAX_PUSH_ENDPOINT_LENGTH = 1000;
/** Tries per delivery (the first and two retries), each only while the alert is fresh. */
export const MAX_PUSH_ATTEMPTS = 3;

/** The field codes the push routes answer, with their Spanish words (the routes' `config.fieldMessages`). */
export const PUSH_FIELD_MESSAGES = {
  pushEndpointInvalid: 'La dirección de notificaciones del navegador no es válida.',
  pushEndpointTooLong: 'La dirección de notificaciones del navegador es demasiado larga.',
  pushEndpointNotAllowed: 'Solo aceptamos servicios de notificaciones en internet por https.',
  pushKeyInvalid: 'Las claves de notificaciones del navegador no son válidas.',
} as const;

const B64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** The bytes of a base64url string (padding allowed), or null when it is not base64url. Pure, for both wings. */
export function base64urlBytes(value: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]*={0,2}$/.test(value)) return null;
  const bare = value.replace(/=+$/, '');
  if (bare.length % 4 === 1) return null;
  const out = new Uint8Array(Math.floor((bare.length * 3) / 4));
  let bits = 0;
  let acc = 0;
  let i = 0;
  for (const ch of bare) {
    acc = (acc << 6) | B64URL.indexOf(ch);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[i++] = (acc >> bits) & 0xff;
    }
  }
  return out;
}

/** base64url without padding. */
export function toBase64url(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const n = ((bytes[i] ?? 0) << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    const chars = i + 2 < bytes.length ? 4 : i + 1 < bytes.length ? 3 : 2;
    for (let c = 0; c < chars; c++) out += B64URL[(n >> (18 - 6 * c)) & 63];
  }
  return out;
}

const ZKey = (bytes: number) =>
  z
    .string({ error: 'pushKeyInvalid' })
    .max(200, { error: 'pushKeyInvalid' })
    .refine((v) => base64urlBytes(v)?.length === bytes, { error: 'pushKeyInvalid' });

/** A browser's PushSubscription as `subscription.toJSON()` gives it. */
export const ZPushSubscriptionInput = z.object({
  endpoint: z
    .string({ error: 'pushEndpointInvalid' })
    .max(MAX_PUSH_ENDPOINT_LENGTH, { error: 'pushEndpointTooLong' })
    .refine((v) => URL.canParse(v) && /^https?:$/.test(new URL(v).protocol), { error: 'pushEndpointInvalid' }),
  expirationTime: z.number().nullable().optional(),
  keys: z.object({
    /** The browser's P-256 public key, an uncompressed point (65 bytes). */
    p256dh: ZKey(65).refine((v) => base64urlBytes(v)?.[0] === 0x04, { error: 'pushKeyInvalid' }),
    /** The 16-byte authentication secret. */
    auth: ZKey(16),
  }),
});
export type PushSubscriptionInput = z.infer<typeof ZPushSubscriptionInput>;

export const ZPushUnsubscribe = z.object({
  endpoint: z.string({ error: 'pushEndpointInvalid' }).max(MAX_PUSH_ENDPOINT_LENGTH, { error: 'pushEndpointTooLong' }),
});

/** What a push carries once decrypted by the browser, and what the service worker shows: the show, its seller and link, nothing personal. */
export interface PushPayload {
  title: string;
  body: string;
  /** The absolute link the notification opens. */
  url: string;
  /** The notification's tag on the device: one per show, so a newer alert replaces an older one. */
  tag: string;
  sessionId: string | null;
}

/**
 * The push's Topic for a show (RFC 8030 §5.4: at most 32 base64url characters): the session id's
 * 16 bytes in base64url, 22 characters. A push service keeps only the newest undelivered push of a topic.
 */
export function pushTopic(sessionId: string): string {
  const hex = sessionId.replace(/-/g, '');
  if (/^[0-9a-f]{32}$/i.test(hex)) return toBase64url(Uint8Array.from(hex.match(/../g) ?? [], (h) => Number.parseInt(h, 16)));
  return toBase64url(new TextEncoder().encode(sessionId)).slice(0, 32);
}
