/**
 * Web Push requests on their own thread, at a lower priority than the server's.
 *
 * Each push is encrypted for its browser (an ECDH key pair made for it, HKDF and AES-GCM, about
 * 0.3 ms of CPU) and then POSTed to its push service (an HTTP request: headers written, a socket
 * written to, an answer parsed, about as much again). A show's 10,000 followers are seconds of
 * that: on the server's thread it came between bids, and a bid's answer waited behind it. Here a
 * worker thread does both, and lowers its own scheduling priority (on Linux a thread's nice value
 * is its own), so when the cores are busy a bid is served first and the pushes go out a moment
 * later. The server's thread only claims the rows, checks where they go, and records the answers.
 *
 * Where a request may connect was decided on the server's thread: each job carries the addresses
 * its host resolved to, all checked public (addresses.ts), and the socket connects to those only.
 * A job without them is for an origin in PUSH_ALLOWED_ORIGINS, reached as its name resolves.
 *
 * The worker runs this same file, as the PGlite thread does (db/pglite-thread.ts): from the
 * TypeScript sources it registers tsx's loader first; the built release is plain JavaScript.
 */
import http from 'node:http';
import https from 'node:https';
import os from 'node:os';
import { parentPort, Worker, workerData } from 'node:worker_threads';
import webpush from 'web-push';
import { pinnedLookup, type ResolvedAddress } from './addresses.js';

/** One push to send: its subscription's keys, the payload, the request's headers besides, and where it may connect. */
export interface SendJob {
  endpoint: string;
  p256dh: string;
  auth: string;
  payload: string;
  ttlSeconds: number;
  topic: string | null;
  /** The VAPID header, signed once per push service by the sender. */
  authorization: string;
  /** The checked addresses of the endpoint's host; null for an origin in PUSH_ALLOWED_ORIGINS. */
  addresses: ResolvedAddress[] | null;
}

/** What became of one push: the push service's answer, or why there was none. */
export type Sent =
  | { kind: 'answered'; status: number; retryAfter: string | null }
  | { kind: 'unencryptable'; reason: string }
  | { kind: 'network'; reason: string };

const REQUEST_TIMEOUT_MS = 10_000;
/** The nice value the thread takes: below the server's thread, above nothing else's work. */
const THREAD_NICE = 10;

/** web-push's request details for one job (aes128gcm), or why it cannot be written to. */
export function encryptOne(job: SendJob): { ok: true; headers: Record<string, string | number>; body: Buffer } | { ok: false; reason: string } {
  try {
    const details = webpush.generateRequestDetails({ endpoint: job.endpoint, keys: { p256dh: job.p256dh, auth: job.auth } }, job.payload, {
      // Signed by the sender once per push service, not once per push.
      vapidDetails: null,
      headers: { Authorization: job.authorization },
      TTL: job.ttlSeconds,
      urgency: 'high',
      ...(job.topic ? { topic: job.topic } : {}),
    } as unknown as webpush.RequestOptions);
    return { ok: true, headers: details.headers as Record<string, string | number>, body: (details.body as Buffer | null) ?? Buffer.alloc(0) };
  } catch (err) {
    // A key that is no point of the curve: this subscription can never be written to.
    return { ok: false, reason: `cannot encrypt for this subscription: ${(err as Error).message}`.slice(0, 200) };
  }
}

// ── The worker ───────────────────────────────────────────────────────────────

type Request = { id: number; jobs: SendJob[] };
type Reply = { id: number; results: Sent[] };

const WORKER_MARK = 'martillo:push-send-thread';

/** Sends jobs with at most `concurrency` requests in flight across every batch the thread holds. */
function sender(concurrency: number) {
  const agents = {
    http: new http.Agent({ keepAlive: true, maxSockets: concurrency }),
    https: new https.Agent({ keepAlive: true, maxSockets: concurrency }),
  };
  let inFlight = 0;
  const waiting: (() => void)[] = [];
  const slot = async () => {
    while (inFlight >= concurrency) await new Promise<void>((resolve) => waiting.push(resolve));
    inFlight++;
  };
  const release = () => {
    inFlight--;
    waiting.shift()?.();
  };

  function post(job: SendJob, headers: Record<string, string | number>, body: Buffer): Promise<Sent> {
    const endpoint = new URL(job.endpoint);
    const isHttps = endpoint.protocol === 'https:';
    const lookup = job.addresses ? pinnedLookup(new Map([[endpoint.hostname.replace(/^\[|\]$/g, ''), job.addresses]])) : undefined;
    return new Promise<Sent>((resolve) => {
      const req = (isHttps ? https : http).request(
        endpoint,
        { method: 'POST', headers, agent: isHttps ? agents.https : agents.http, timeout: REQUEST_TIMEOUT_MS, ...(lookup ? { lookup } : {}) },
        (res) => {
          res.resume();
          res.on('end', () => {
            const retryAfter = res.headers['retry-after'];
            resolve({ kind: 'answered', status: res.statusCode ?? 0, retryAfter: retryAfter ? String(retryAfter) : null });
          });
          res.on('error', (err: NodeJS.ErrnoException) => resolve(networkFailure(err)));
        },
      );
      req.on('timeout', () => req.destroy(Object.assign(new Error('push service did not answer in time'), { code: 'ETIMEDOUT' })));
      req.on('error', (err: NodeJS.ErrnoException) => resolve(networkFailure(err)));
      req.end(body);
    });
  }

  return async (jobs: SendJob[]): Promise<Sent[]> => {
    // Encrypted as one slice of work, then sent as slots free up.
    const encrypted = jobs.map(encryptOne);
    return Promise.all(
      jobs.map(async (job, i): Promise<Sent> => {
        const e = encrypted[i];
        if (!e?.ok) return { kind: 'unencryptable', reason: e?.reason ?? 'not encrypted' };
        await slot();
        try {
          return await post(job, e.headers, e.body);
        } finally {
          release();
        }
      }),
    );
  };
}

function networkFailure(err: NodeJS.ErrnoException): Sent {
  return { kind: 'network', reason: `network: ${err.code ?? err.message}`.slice(0, 200) };
}

function serve(port: NonNullable<typeof parentPort>, concurrency: number): void {
  try {
    // Priority 0 is this thread alone on Linux (setpriority on the calling thread's id).
    os.setPriority(0, THREAD_NICE);
  } catch {
    // Not permitted here: the thread runs at the server's priority, which is only slower for bids.
  }
  const send = sender(concurrency);
  port.on('message', (m: Request) => {
    void send(m.jobs).then((results) => port.postMessage({ id: m.id, results } satisfies Reply));
  });
}

const data = workerData as { mark?: string; concurrency?: number } | null;
if (parentPort && data?.mark === WORKER_MARK) serve(parentPort, data.concurrency ?? 50);

// ── The server's side ────────────────────────────────────────────────────────

export interface SendThread {
  /** The jobs' outcomes, in order. */
  send(jobs: SendJob[]): Promise<Sent[]>;
  close(): Promise<void>;
}

/** Starts the thread; a thread that dies fails what it held, and the next call starts a new one. */
export function startSendThread(opts: { concurrency: number }): SendThread {
  let worker: Worker | null = null;
  let next = 1;
  const pending = new Map<number, { resolve: (results: Sent[]) => void; reject: (err: Error) => void }>();

  const start = (): Worker => {
    const self = JSON.stringify(import.meta.url);
    const entry = import.meta.url.endsWith('.ts')
      ? `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((tsx) => { tsx.register(); return import(${self}); })`
      : `import(${self})`;
    const started = new Worker(entry, { eval: true, workerData: { mark: WORKER_MARK, concurrency: opts.concurrency } });
    const failAll = (err: Error) => {
      if (worker === started) worker = null;
      for (const p of pending.values()) p.reject(err);
      pending.clear();
    };
    started.on('message', (m: Reply) => {
      const p = pending.get(m.id);
      if (!p) return;
      pending.delete(m.id);
      // An idle thread does not keep the process alive; a busy one does, until its answer.
      if (pending.size === 0) started.unref();
      p.resolve(m.results);
    });
    started.on('error', (err) => failAll(err));
    started.on('exit', (code) => failAll(new Error(`push send thread exited (${code})`)));
    return started;
  };

  return {
    send(jobs) {
      if (jobs.length === 0) return Promise.resolve([]);
      worker ??= start();
      const id = next++;
      const w = worker;
      w.ref();
      return new Promise<Sent[]>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        w.postMessage({ id, jobs } satisfies Request);
      });
    },
    async close() {
      const w = worker;
      worker = null;
      // What it still held fails (its exit does that), and is retried by the next pass.
      if (w) await w.terminate();
    },
  };
}
