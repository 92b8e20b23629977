import { createHmac } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { rows, type Tx } from '../../db/connect.js';
import { AppError } from '../../http/errors.js';
import { messages } from '../../messages.js';
import { addressKey } from '../../realtime/client-address.js';
import { lineInterval, paceRefusal, repeatKey } from './policies.js';

/**
 * How fast lines may come: per writer (the 2-second pace, the slow mode, a repeated line) and per
 * client address (all its accounts together). Each is one conditional upsert in the line's
 * transaction, so it holds across instances, and a line refused by one rule leaves the other's
 * count as it was (the transaction rolls back).
 */

/**
 * Takes the writer's turn: one upsert on chat_writers that succeeds only when the last line is at
 * least `interval` seconds old and said something else (compared in its canonical form: invisible
 * characters, look-alike letters and punctuation do not make a line new). Concurrent lines of one
 * writer, on any instance, queue on that row, so only one of them passes. When it refuses, the row says why.
 */
export async function takeWriterTurn(tx: Tx, opts: { sessionId: string; userId: string; text: string; slowModeSeconds: number; isModerator: boolean }) {
  const key = repeatKey(opts.text);
  const interval = lineInterval(opts);
  const taken = rows(
    await tx.execute(sql`
      insert into chat_writers (session_id, user_id, last_at, last_text)
      values (${opts.sessionId}::uuid, ${opts.userId}::uuid, now(), ${key})
      on conflict (session_id, user_id) do update set last_at = excluded.last_at, last_text = excluded.last_text
        where chat_writers.last_at <= excluded.last_at - (${interval}::int * interval '1 second')
          and chat_writers.last_text <> excluded.last_text
      returning 1 as taken`),
  );
  if (taken.length > 0) return;
  const [row] = rows<{ elapsed_ms: number; same_text: boolean }>(
    await tx.execute(sql`
      select (extract(epoch from (now() - last_at)) * 1000)::float8 as elapsed_ms, last_text = ${key} as same_text
        from chat_writers where session_id = ${opts.sessionId}::uuid and user_id = ${opts.userId}::uuid`),
  );
  const refusal = paceRefusal({ ...opts, elapsedMs: Number(row?.elapsed_ms ?? 0), sameText: row?.same_text === true }) ?? {
    code: 'CHAT_RATE_LIMITED' as const,
    waitSeconds: 2,
  };
  if (refusal.code === 'CHAT_DUPLICATE') throw new AppError('CHAT_DUPLICATE', messages.chat.duplicate);
  const words = refusal.code === 'CHAT_SLOW_MODE' ? messages.chat.slowMode : messages.chat.tooFast;
  throw new AppError(refusal.code, words.replace('{{seconds}}', String(refusal.waitSeconds)), undefined, { retryAfterSeconds: refusal.waitSeconds });
}

/** The window the per-address limit counts lines in: CHAT_LINES_PER_ADDRESS lines per this many seconds. */
export const ADDRESS_WINDOW_SECONDS = 10;

/**
 * The key a client address is counted under in the database: the address as the limits read it
 * (an IPv6 address by its /64, client-address.ts), hashed with the server's secret, so the table
 * holds no address anyone could read back.
 */
export function createAddressHasher(secret: string): (ip: string) => string {
  const key = createHmac('sha256', secret).update('chat-address').digest();
  return (ip) => createHmac('sha256', key).update(addressKey(ip)).digest('base64url').slice(0, 22);
}

/**
 * Takes a turn of the address: a generic cell rate kept in one row per session and address.
 * `due_at` is when the address's lines would be all paid off at one line per `window / limit`
 * seconds; a line is taken while that is at most `window` seconds ahead, so an address writes
 * `limit` lines at once and then one per `window / limit` seconds. Refused: CHAT_ADDRESS_LIMITED,
 * saying why and how long to wait.
 */
export async function takeAddressTurn(tx: Tx, opts: { sessionId: string; addressHash: string; limit: number }) {
  const step = ADDRESS_WINDOW_SECONDS / opts.limit;
  const slack = ADDRESS_WINDOW_SECONDS - step;
  const taken = rows(
    await tx.execute(sql`
      insert into chat_address_pace (session_id, address_hash, due_at)
      values (${opts.sessionId}::uuid, ${opts.addressHash}, now() + (${step}::float8 * interval '1 second'))
      on conflict (session_id, address_hash) do update
        set due_at = greatest(chat_address_pace.due_at, now()) + (${step}::float8 * interval '1 second')
        where greatest(chat_address_pace.due_at, now()) <= now() + (${slack}::float8 * interval '1 second')
      returning 1 as taken`),
  );
  if (taken.length > 0) return;
  const [row] = rows<{ wait_ms: number }>(
    await tx.execute(sql`
      select (extract(epoch from (due_at - now())) * 1000 - ${slack * 1000}::float8)::float8 as wait_ms
        from chat_address_pace where session_id = ${opts.sessionId}::uuid and address_hash = ${opts.addressHash}`),
  );
  const waitSeconds = Math.max(1, Math.ceil(Number(row?.wait_ms ?? 1000) / 1000));
  throw new AppError('CHAT_ADDRESS_LIMITED', messages.chat.addressLimited.replace('{{seconds}}', String(waitSeconds)), undefined, {
    retryAfterSeconds: waitSeconds,
  });
}
