import { isIP } from 'node:net';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import webpush from 'web-push';
import { MAX_PUSH_ATTEMPTS, type PushPayload, pushTopic } from '../../../domain/push.js';
import { type BulkPacer, type PacerClock, realClock, unpaced } from '../../bulk-pacer.js';
import type { AppContext } from '../../context.js';
import { type Db, rows } from '../../db/connect.js';
import { type PassLoop, startPassLoop } from '../../pass-loop.js';
import { checkedAddresses, endpointProblem, isAllowedOrigin, PrivateAddressError, type ResolvedAddress, type Resolver, systemResolver } from './addresses.js';
import { type VapidDetails, vapidKeysOf } from './keys.js';
import { type SendJob, type Sent, startSendThread } from './send-thread.js';

/**
 * The push sender: turns pending push_deliveries into Web Push requests. One pass claims due rows
 * in batches (FOR UPDATE SKIP LOCKED, so instances never take the same row; the claim counts the
 * attempt and leases the row for two minutes, so a crash mid-send lets another pass retry it),
 * checks where each goes (every address its host resolves to must be public, once per host and
 * batch), signs with VAPID once per push service, and hands the pushes to a thread of lower priority
 * than the server's that encrypts each for its subscription (web-push, aes128gcm) and sends it with
 * bounded concurrency (send-thread.ts: when the cores are busy, bids come first); then it writes
 * the outcomes in a few statements per batch:
 * 2xx sent; 404/410 the subscription is gone and deleted (its deliveries with it); 429, 5xx and
 * network errors retried with backoff while the alert is fresh, at most MAX_PUSH_ATTEMPTS tries;
 * other 4xx failed with the reason. A delivery past its expiry is never sent.
 *
 * The pushes leave at most `rate` a second (PUSH_RATE, 600 by default), a chunk at a time. At full
 * speed a show's 10,000 followers went out in about 3 s, and for those seconds the requests, their
 * answers and the push service's share of the machine took the cores the show's bids needed: a
 * bid's p99 doubled (bench:go-live). Spread over about 17 s, well within the alert's half-minute,
 * the bids hardly notice them.
 */

export const BATCH_SIZE = 100;
export const CONCURRENCY = 50;
/** Pushes handed to the send thread at a time: the first requests leave while the rest are encrypted. */
const SEND_CHUNK = 50;
/** The longest sleep between passes when nothing is due: a new alert waits at most this long. */
export const MAX_SLEEP_MS = 1000;
/** How long a claimed row stays leased to this pass before another may take it again. */
const LEASE = '2 minutes';
/** The VAPID token is signed once per push service and reused this long (it is valid 12 hours). */
const VAPID_REUSE_MS = 60 * 60 * 1000;
const VAPID_VALID_S = 12 * 60 * 60;

export interface PushSenderOptions {
  db: Db;
  vapid: () => Promise<VapidDetails>;
  /** PUBLIC_URL: a notification's path becomes an absolute link on it. */
  publicUrl: URL;
  /** PUSH_ALLOWED_ORIGINS: reached even on http: or a private address. */
  allowedOrigins: readonly string[];
  /** Name resolution for the address check (the system's by default). */
  resolve?: Resolver;
  batchSize?: number;
  concurrency?: number;
  /** Paces the claims and the outcomes' writes with the instance's other bulk work (bulk-pacer.ts); unpaced when not given. */
  bulk?: BulkPacer;
  /** Pushes a second at most (PUSH_RATE); unlimited when not given. */
  rate?: number;
  /** The rate's clock (a test's own, to check the pacing without waiting). */
  clock?: PacerClock;
  log?: Pick<FastifyBaseLogger, 'warn'>;
}

export interface PushPassResult {
  claimed: number;
  sent: number;
  retried: number;
  failed: number;
  gone: number;
  expired: number;
  /** Until the next pending delivery falls due (ms), or null when none waits. */
  nextInMs: number | null;
}

interface Claimed {
  id: number;
  attempts: number;
  subscription_id: string;
  ms_left: string | number;
  title: string;
  body: string;
  url: string;
  session_id: string | null;
  endpoint: string;
  p256dh: string;
  auth: string;
}

type Outcome =
  | { kind: 'sent' }
  | { kind: 'gone'; status: number }
  | { kind: 'retry'; reason: string; retryAfterMs: number | null }
  | { kind: 'failed'; reason: string }
  | { kind: 'expired' };

/** The push's payload from the notification: the show's title, seller and link (the notification holds nothing personal). */
export function pushPayload(row: { title: string; body: string; url: string; session_id: string | null }, publicUrl: URL): PushPayload {
  return {
    title: row.title,
    body: row.body,
    url: new URL(row.url, publicUrl).href,
    tag: row.session_id ? `show-${row.session_id}` : 'martillo',
    sessionId: row.session_id,
  };
}

/** Retry-After in ms (seconds or an HTTP date), or null. */
function retryAfterMs(value: string | undefined): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}

/** How long before the next try: 2 s, then 8 s; a push service's Retry-After when it says more. */
function backoffMs(attempts: number, retryAfter: number | null): number {
  return Math.max(2000 * 4 ** Math.max(0, attempts - 1), retryAfter ?? 0);
}

export interface PushSender {
  runPass(): Promise<PushPassResult>;
  close(): void;
}

export function createPushSender(opts: PushSenderOptions): PushSender {
  const concurrency = opts.concurrency ?? CONCURRENCY;
  const batchSize = opts.batchSize ?? BATCH_SIZE;
  const resolve = opts.resolve ?? systemResolver;
  const bulk = opts.bulk ?? unpaced;
  if (opts.rate !== undefined && !(opts.rate > 0)) throw new Error(`rate must be positive, not ${opts.rate}`);
  const clock = opts.clock ?? realClock;
  const vapidTokens = new Map<string, { header: string; until: number }>();
  const thread = startSendThread({ concurrency });
  /** When the next chunk may leave: each chunk moves it on by its share of a second at `rate`. */
  let nextSlot = Number.NEGATIVE_INFINITY;

  /** Waits for the next chunk's turn under `rate` (at once after a quiet spell: the slots do not pile up). */
  async function slotFor(count: number): Promise<void> {
    if (opts.rate === undefined) return;
    const now = clock.now();
    const at = Math.max(now, nextSlot);
    nextSlot = at + (count * 1000) / opts.rate;
    if (at > now) await clock.sleep(at - now);
  }

  function authorization(audience: string, vapid: VapidDetails): string {
    const now = Date.now();
    const cached = vapidTokens.get(audience);
    if (cached && cached.until > now) return cached.header;
    const { Authorization } = webpush.getVapidHeaders(
      audience,
      vapid.subject,
      vapid.publicKey,
      vapid.privateKey,
      'aes128gcm',
      Math.floor(now / 1000) + VAPID_VALID_S,
    ) as { Authorization: string };
    vapidTokens.set(audience, { header: Authorization, until: now + VAPID_REUSE_MS });
    return Authorization;
  }

  /** What a claimed row needs before it is sent: an outcome already (expired, refused address), or its job. */
  function prepare(row: Claimed, vapid: VapidDetails): Outcome | { hostname: string | null; job: SendJob } {
    const msLeft = Number(row.ms_left);
    if (msLeft <= 0) return { kind: 'expired' };
    const allowed = isAllowedOrigin(row.endpoint, opts.allowedOrigins);
    const problem = allowed ? null : endpointProblem(row.endpoint, opts.allowedOrigins);
    if (problem) return { kind: 'failed', reason: 'endpoint not allowed (http: or a private address)' };
    const endpoint = new URL(row.endpoint);
    return {
      // An allowed origin is reached as its name resolves; any other host is checked first.
      hostname: allowed ? null : endpoint.hostname,
      job: {
        endpoint: row.endpoint,
        p256dh: row.p256dh,
        auth: row.auth,
        payload: JSON.stringify(pushPayload(row, opts.publicUrl)),
        ttlSeconds: Math.max(1, Math.floor(msLeft / 1000)),
        topic: row.session_id ? pushTopic(row.session_id) : null,
        authorization: authorization(endpoint.origin, vapid),
        addresses: null,
      },
    };
  }

  /**
   * Each host's addresses, resolved once for the batch and checked: every one public, or the host
   * is refused (PrivateAddressError) or could not be resolved (kept as the error, retried later).
   */
  async function checkHosts(hostnames: Iterable<string>): Promise<Map<string, ResolvedAddress[] | Error>> {
    const checked = new Map<string, ResolvedAddress[] | Error>();
    await Promise.all(
      [...new Set(hostnames)].map(async (hostname) => {
        try {
          // An address written in the endpoint is its own answer (an IPv6 one without its brackets).
          const bare = hostname.replace(/^\[|\]$/g, '');
          const family = isIP(bare);
          const addresses = family ? [{ address: bare, family }] : await resolve(bare);
          checked.set(hostname, checkedAddresses(bare, addresses));
        } catch (err) {
          checked.set(hostname, err as Error);
        }
      }),
    );
    return checked;
  }

  /** What the push service's answer, or its absence, means for the row. */
  function outcomeOf(sent: Sent): Outcome {
    if (sent.kind === 'unencryptable') return { kind: 'failed', reason: sent.reason };
    if (sent.kind === 'network') return { kind: 'retry', reason: sent.reason, retryAfterMs: null };
    const { status } = sent;
    if (status >= 200 && status < 300) return { kind: 'sent' };
    if (status === 404 || status === 410) return { kind: 'gone', status };
    if (status === 429 || status >= 500) return { kind: 'retry', reason: `HTTP ${status}`, retryAfterMs: retryAfterMs(sent.retryAfter ?? undefined) };
    return { kind: 'failed', reason: `HTTP ${status}` };
  }

  async function claim(): Promise<Claimed[]> {
    return rows<Claimed>(
      await opts.db.execute(sql`
        with due as (
          select id from push_deliveries
          where status = 'pending' and next_attempt_at <= now()
          order by next_attempt_at
          limit ${batchSize}
          for update skip locked
        ), claimed as (
          update push_deliveries d
          set attempts = d.attempts + 1, next_attempt_at = now() + ${sql.raw(`interval '${LEASE}'`)}
          from due where d.id = due.id
          returning d.id, d.attempts, d.notification_id, d.subscription_id, d.expires_at
        )
        select c.id, c.attempts, c.subscription_id,
          (extract(epoch from (c.expires_at - clock_timestamp())) * 1000)::bigint as ms_left,
          n.title, n.body, n.url, n.session_id, s.endpoint, s.p256dh, s.auth
        from claimed c
        join notifications n on n.id = c.notification_id
        join push_subscriptions s on s.id = c.subscription_id`),
    );
  }

  /** Writes a batch's outcomes: a statement per kind, not per row. */
  async function record(results: { row: Claimed; outcome: Outcome }[]): Promise<Omit<PushPassResult, 'claimed' | 'nextInMs'>> {
    const sent = results.filter((r) => r.outcome.kind === 'sent').map((r) => r.row);
    const gone = results.filter((r) => r.outcome.kind === 'gone').map((r) => r.row);
    const finished: { id: number; error: string }[] = [];
    const retries: { id: number; delay_ms: number; error: string }[] = [];
    const failedSubscriptions: string[] = [];
    let expired = 0;
    for (const { row, outcome } of results) {
      if (outcome.kind === 'expired') {
        expired++;
        finished.push({ id: row.id, error: 'expired' });
      } else if (outcome.kind === 'failed') {
        failedSubscriptions.push(row.subscription_id);
        finished.push({ id: row.id, error: outcome.reason });
      } else if (outcome.kind === 'retry') {
        failedSubscriptions.push(row.subscription_id);
        const delay = backoffMs(row.attempts, outcome.retryAfterMs);
        if (row.attempts >= MAX_PUSH_ATTEMPTS) finished.push({ id: row.id, error: `${outcome.reason}; gave up after ${row.attempts} attempts` });
        // Never retried after the alert went stale: it would arrive as noise.
        else if (delay >= Number(row.ms_left)) finished.push({ id: row.id, error: `${outcome.reason}; expired before the next attempt` });
        else retries.push({ id: row.id, delay_ms: delay, error: outcome.reason });
      }
    }
    const db = opts.db;
    if (sent.length) {
      await db.execute(sql`
        update push_deliveries set status = 'sent', sent_at = now(), last_error = null
        where id in (select (value)::bigint from jsonb_array_elements_text(${JSON.stringify(sent.map((r) => r.id))}::jsonb))`);
      // A subscription's success is kept to the day: a follower's pushes (every show of every seller
      // they follow) do not rewrite its row each time, which would be 10,000 row versions for a
      // show's followers, written while the show's bids want the database. A success after a failure is always written.
      await db.execute(sql`
        update push_subscriptions set last_success_at = now(), failure_count = 0
        where id in (select (value)::uuid from jsonb_array_elements_text(${JSON.stringify([...new Set(sent.map((r) => r.subscription_id))])}::jsonb))
          and (failure_count <> 0 or last_success_at is null or last_success_at < now() - interval '1 day')`);
    }
    if (gone.length) {
      // The push service forgot this browser: its subscription goes, and its deliveries with it (cascade).
      await db.execute(sql`
        delete from push_subscriptions
        where id in (select (value)::uuid from jsonb_array_elements_text(${JSON.stringify([...new Set(gone.map((r) => r.subscription_id))])}::jsonb))`);
    }
    if (finished.length) {
      await db.execute(sql`
        update push_deliveries d set status = 'failed', last_error = r.error
        from jsonb_to_recordset(${JSON.stringify(finished)}::jsonb) as r(id bigint, error text)
        where d.id = r.id`);
    }
    if (retries.length) {
      await db.execute(sql`
        update push_deliveries d set next_attempt_at = now() + r.delay_ms * interval '1 millisecond', last_error = r.error
        from jsonb_to_recordset(${JSON.stringify(retries)}::jsonb) as r(id bigint, delay_ms int, error text)
        where d.id = r.id`);
    }
    if (failedSubscriptions.length) {
      await db.execute(sql`
        update push_subscriptions s set failure_count = s.failure_count + f.n
        from (select (value)::uuid as id, count(*)::int as n from jsonb_array_elements_text(${JSON.stringify(failedSubscriptions)}::jsonb) group by 1) f
        where s.id = f.id`);
    }
    return { sent: sent.length, gone: gone.length, retried: retries.length, failed: finished.length - expired, expired };
  }

  /**
   * Sends a batch: its hosts checked, then handed to the send thread SEND_CHUNK at a time, each
   * in its turn under the rate (the thread encrypts a chunk and sends it while the next waits).
   */
  async function sendAll(batch: Claimed[], vapid: VapidDetails): Promise<{ row: Claimed; outcome: Outcome }[]> {
    const results: { row: Claimed; outcome: Outcome }[] = [];
    const prepared: { row: Claimed; hostname: string | null; job: SendJob }[] = [];
    for (const row of batch) {
      const p = prepare(row, vapid);
      if ('kind' in p) results.push({ row, outcome: p });
      else prepared.push({ row, ...p });
    }
    const hosts = await checkHosts(prepared.flatMap((p) => (p.hostname ? [p.hostname] : [])));
    const toSend: { row: Claimed; job: SendJob }[] = [];
    for (const p of prepared) {
      const addresses = p.hostname ? hosts.get(p.hostname) : null;
      if (addresses instanceof PrivateAddressError) results.push({ row: p.row, outcome: { kind: 'failed', reason: 'endpoint resolves to a private address' } });
      else if (addresses instanceof Error) {
        const code = (addresses as NodeJS.ErrnoException).code;
        results.push({ row: p.row, outcome: { kind: 'retry', reason: `network: ${code ?? addresses.message}`.slice(0, 200), retryAfterMs: null } });
      } else toSend.push({ row: p.row, job: { ...p.job, addresses: addresses ?? null } });
    }
    const chunks: (typeof toSend)[] = [];
    for (let i = 0; i < toSend.length; i += SEND_CHUNK) chunks.push(toSend.slice(i, i + SEND_CHUNK));
    await Promise.all(
      chunks.map(async (chunk) => {
        try {
          await slotFor(chunk.length);
          const sent = await thread.send(chunk.map((c) => c.job));
          for (const [k, c] of chunk.entries()) results.push({ row: c.row, outcome: outcomeOf(sent[k] as Sent) });
        } catch (err) {
          // The thread died: these go back to the queue and the next pass tries them again.
          const reason = `send thread: ${(err as Error).message}`.slice(0, 200);
          for (const c of chunk) results.push({ row: c.row, outcome: { kind: 'retry', reason, retryAfterMs: null } });
        }
      }),
    );
    return results;
  }

  return {
    async runPass() {
      const vapid = await opts.vapid();
      const total: PushPassResult = { claimed: 0, sent: 0, retried: 0, failed: 0, gone: 0, expired: 0, nextInMs: null };
      // Batch after batch while full ones come: a show's 10,000 followers go out in one pass.
      for (;;) {
        const batch = await bulk.run(claim);
        total.claimed += batch.length;
        if (batch.length === 0) break;
        const outcomes = await sendAll(batch, vapid);
        const done = await bulk.run(() => record(outcomes));
        total.sent += done.sent;
        total.retried += done.retried;
        total.failed += done.failed;
        total.gone += done.gone;
        total.expired += done.expired;
        if (batch.length < batchSize) break;
      }
      const [next] = rows<{ ms: string | number | null }>(
        await opts.db.execute(sql`
          select (extract(epoch from min(next_attempt_at) - clock_timestamp()) * 1000)::bigint as ms
          from push_deliveries where status = 'pending'`),
      );
      total.nextInMs = next?.ms === null || next?.ms === undefined ? null : Number(next.ms);
      if (total.failed > 0) opts.log?.warn({ failed: total.failed }, 'push deliveries failed');
      return total;
    },
    close() {
      void thread.close();
    },
  };
}

/** The push-sender job: a pass, then sleep until the next due delivery, at most a second. */
export function startPushSender({ ctx, log, bulk }: { ctx: Pick<AppContext, 'db' | 'config'>; log: FastifyBaseLogger; bulk: BulkPacer }): PassLoop {
  const sender = createPushSender({
    db: ctx.db,
    bulk,
    rate: ctx.config.push.rate,
    vapid: () => vapidKeysOf(ctx),
    publicUrl: ctx.config.publicUrl,
    allowedOrigins: ctx.config.push.allowedOrigins,
    log,
  });
  const loop = startPassLoop({
    name: 'push sender',
    log,
    retryMs: MAX_SLEEP_MS,
    unref: true,
    async pass() {
      const done = await sender.runPass();
      // At least 50 ms: a due row another instance holds locked must not make this one spin.
      return done.nextInMs === null ? MAX_SLEEP_MS : Math.min(MAX_SLEEP_MS, Math.max(50, done.nextInMs + 5));
    },
  });
  return {
    async stop() {
      await loop.stop();
      sender.close();
    },
    status: () => loop.status(),
  };
}
