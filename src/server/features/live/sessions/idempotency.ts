import { createHash } from 'node:crypto';
import { and, eq, lt, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { IDEMPOTENCY_KEY_MAX } from '../../../../domain/bid-rules.js';
import type { Db, Tx } from '../../../db/connect.js';
import { liveIdempotencyKeys } from '../../../db/schema.js';
import { AppError } from '../../../http/errors.js';
import { messages } from '../../../messages.js';

/**
 * Idempotency-Key on 'Crear sesión' and the quick auction, as bids have it: a double click or a
 * retry after a lost answer makes one record, and the repeat answers that record.
 *
 * The key is claimed by the first statement of the transaction that creates the record (a primary
 * key per user and key): a second request with the key waits on that row until the first commits,
 * then reads what it made; if the first failed, its row is gone with it and the second runs as new.
 * So the key lock comes before the auction and session rows (sessions.ts's order).
 *
 * Kept for a day: a repeat comes within seconds (a double click) or minutes (a phone that lost its
 * connection), and the Live Hub makes a fresh key for every submission, so a key never comes back
 * after that. An expired key is deleted when it is used again, and the app sweeps the rest hourly.
 */
export const LIVE_KEY_TTL_HOURS = 24;

export type KeyedAction = 'live_session.create' | 'live_session.quick_auction';

export interface KeyClaim {
  userId: string;
  key: string;
  /** sha256 of the action, the session it is about and the parsed body. */
  hash: string;
}

/** What the first request with the key made. */
export interface KeyReplay {
  sessionId: string | null;
  auctionId: string | null;
}

/** The optional Idempotency-Key header: 1–100 visible ASCII characters (as bids' header), or absent. */
export function idempotencyKeyOf(req: FastifyRequest): string | null {
  const raw = req.headers['idempotency-key'];
  if (raw === undefined) return null;
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (!value || value.length > IDEMPOTENCY_KEY_MAX || !/^[\x21-\x7e]+$/.test(value)) {
    throw new AppError('VALIDATION', messages.bidding.idempotencyInvalid);
  }
  return value;
}

/** The claim of a request, or null without a key. */
export function keyClaim(opts: { userId: string; key: string | null; action: KeyedAction; sessionId: string | null; body: unknown }): KeyClaim | null {
  if (opts.key === null) return null;
  const request = canonical({ action: opts.action, sessionId: opts.sessionId?.toLowerCase() ?? null, body: opts.body });
  return { userId: opts.userId, key: opts.key, hash: createHash('sha256').update(request).digest('hex') };
}

/** JSON with object keys sorted, so the same request hashes the same whatever order its fields came in. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return `{${entries
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/**
 * Claims the key in `tx`: null when this request is the first (it then calls `settleKey` with what
 * it made), what the first made when it is a repeat, 409 when the key came with another request.
 */
export async function claimKey(tx: Tx, claim: KeyClaim): Promise<KeyReplay | null> {
  const mine = and(eq(liveIdempotencyKeys.userId, claim.userId), eq(liveIdempotencyKeys.idempotencyKey, claim.key));
  await tx.delete(liveIdempotencyKeys).where(and(mine, lt(liveIdempotencyKeys.createdAt, expiry())));
  const [inserted] = await tx
    .insert(liveIdempotencyKeys)
    .values({ userId: claim.userId, idempotencyKey: claim.key, requestHash: claim.hash })
    .onConflictDoNothing()
    .returning({ userId: liveIdempotencyKeys.userId });
  if (inserted) return null;
  const [first] = await tx.select().from(liveIdempotencyKeys).where(mine);
  if (!first) throw new Error('idempotency key vanished');
  if (first.requestHash !== claim.hash) throw new AppError('CONFLICT', messages.live.idempotencyReused);
  return { sessionId: first.sessionId, auctionId: first.auctionId };
}

/** Records what the first request made, in its own transaction. */
export async function settleKey(tx: Tx, claim: KeyClaim, made: KeyReplay): Promise<void> {
  await tx
    .update(liveIdempotencyKeys)
    .set(made)
    .where(and(eq(liveIdempotencyKeys.userId, claim.userId), eq(liveIdempotencyKeys.idempotencyKey, claim.key)));
}

/** The hourly sweep (app.ts): keys older than a day go. */
export async function deleteExpiredLiveKeys(db: Db): Promise<void> {
  await db.delete(liveIdempotencyKeys).where(lt(liveIdempotencyKeys.createdAt, expiry()));
}

const expiry = () => sql`now() - make_interval(hours => ${LIVE_KEY_TTL_HOURS})`;
