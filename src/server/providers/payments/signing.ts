import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { WebhookRequest, WebhookVerdict } from './types.js';

/**
 * Mercado Pago's webhook signature, which the sandbox uses too: `x-signature: ts=…,v1=…` where v1
 * is HMAC-SHA256 (hex) over the manifest `id:{data.id};request-id:{x-request-id};ts:{ts};`.
 */
export function signManifest(secret: string, m: { dataId: string; requestId: string; ts: string }): string {
  return createHmac('sha256', secret).update(`id:${m.dataId};request-id:${m.requestId};ts:${m.ts};`).digest('hex');
}

/**
 * Checks a signed webhook: the pieces are there, the signature matches (in constant time), and ts is
 * within the tolerance. The documented ts is Unix seconds (ts=1704908010); a value of 12 digits or
 * more is read as milliseconds.
 */
export function verifySignedWebhook(request: WebhookRequest, opts: { secret: string; toleranceMs: number; now: number }): WebhookVerdict {
  const signature = header(request.headers, 'x-signature');
  const requestId = header(request.headers, 'x-request-id');
  if (!signature || !requestId) return { ok: false, reason: 'malformed' };
  const parts = parseSignature(signature);
  const ts = parts.get('ts');
  const v1 = parts.get('v1');
  if (!ts || !v1 || !/^\d{1,16}$/.test(ts)) return { ok: false, reason: 'malformed' };

  const body = asRecord(request.body);
  const rawId = request.query['data.id'] || idText(asRecord(body.data).id);
  if (!rawId) return { ok: false, reason: 'malformed' };
  // Mercado Pago signs an alphanumeric data.id in lower case.
  const dataId = /^[a-z0-9]+$/i.test(rawId) ? rawId.toLowerCase() : rawId;

  if (!opts.secret || !/^[0-9a-f]{64}$/i.test(v1)) return { ok: false, reason: 'signature' };
  const expected = Buffer.from(signManifest(opts.secret, { dataId, requestId, ts }), 'hex');
  if (!timingSafeEqual(expected, Buffer.from(v1, 'hex'))) return { ok: false, reason: 'signature' };

  const tsMs = ts.length >= 12 ? Number(ts) : Number(ts) * 1000;
  if (Math.abs(opts.now - tsMs) > opts.toleranceMs) return { ok: false, reason: 'stale' };

  const topic = str(body.type) ?? request.query.type ?? request.query.topic;
  if (!topic) return { ok: false, reason: 'malformed' };
  return { ok: true, eventId: requestId, topic, resourceId: dataId };
}

/** The S256 PKCE challenge of a verifier (RFC 7636). */
export function pkceChallenge(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}

export function asRecord(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

export function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** Mercado Pago ids arrive as numbers or strings. */
export function idText(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return str(value);
}

function header(headers: WebhookRequest['headers'], name: string): string | undefined {
  let value = headers[name];
  if (value === undefined) {
    const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
    value = key === undefined ? undefined : headers[key];
  }
  const first = Array.isArray(value) ? value[0] : value;
  return first?.trim() || undefined;
}

/** `ts=1704908010,v1=abc…` → Map { ts, v1 }. */
function parseSignature(text: string): Map<string, string> {
  const parts = new Map<string, string>();
  for (const piece of text.split(',')) {
    const at = piece.indexOf('=');
    if (at > 0) parts.set(piece.slice(0, at).trim(), piece.slice(at + 1).trim());
  }
  return parts;
}
