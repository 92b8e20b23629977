/**
 * Web Push encryption on its own thread, at a lower priority than the server's.
 *
 * Each push is encrypted for its browser (an ECDH key pair made for it, HKDF and AES-GCM, about
 * 0.3 ms of CPU). A show's 10,000 followers are three seconds of that: on the server's thread it
 * came between bids in slices of fifty, and a bid's answer waited behind them. Here a worker thread
 * does it, and lowers its own scheduling priority (on Linux a thread's nice value is its own), so
 * when the cores are busy a bid is served first and the pushes go out a moment later.
 *
 * The worker runs this same file, as the PGlite thread does (db/pglite-thread.ts): from the
 * TypeScript sources it registers tsx's loader first; the built release is plain JavaScript.
 */
import os from 'node:os';
import { parentPort, Worker, workerData } from 'node:worker_threads';
import webpush from 'web-push';

/** One push to encrypt: the subscription's keys, the payload, and the request's headers besides. */
export interface EncryptJob {
  endpoint: string;
  p256dh: string;
  auth: string;
  payload: string;
  ttlSeconds: number;
  topic: string | null;
  /** The VAPID header, signed once per push service by the sender. */
  authorization: string;
}

export type Encrypted = { ok: true; headers: Record<string, string | number>; body: Uint8Array } | { ok: false; reason: string };

/** The nice value the thread takes: below the server's thread, above nothing else's work. */
const THREAD_NICE = 10;

/** What one job becomes: web-push's request details (aes128gcm), or why it cannot be written to. */
export function encryptOne(job: EncryptJob): Encrypted {
  try {
    const details = webpush.generateRequestDetails({ endpoint: job.endpoint, keys: { p256dh: job.p256dh, auth: job.auth } }, job.payload, {
      // Signed by the sender once per push service, not once per push.
      vapidDetails: null,
      headers: { Authorization: job.authorization },
      TTL: job.ttlSeconds,
      urgency: 'high',
      ...(job.topic ? { topic: job.topic } : {}),
    } as unknown as webpush.RequestOptions);
    return { ok: true, headers: details.headers as Record<string, string | number>, body: (details.body as Buffer | null) ?? new Uint8Array() };
  } catch (err) {
    // A key that is no point of the curve: this subscription can never be written to.
    return { ok: false, reason: `cannot encrypt for this subscription: ${(err as Error).message}`.slice(0, 200) };
  }
}

// ── The worker ───────────────────────────────────────────────────────────────

type Request = { id: number; jobs: EncryptJob[] };
type Reply = { id: number; results: Encrypted[] };

const WORKER_MARK = 'martillo:push-encrypt-thread';

function serve(port: NonNullable<typeof parentPort>): void {
  try {
    // Priority 0 is this thread alone on Linux (setpriority on the calling thread's id).
    os.setPriority(0, THREAD_NICE);
  } catch {
    // Not permitted here: the thread runs at the server's priority, which is only slower for bids.
  }
  port.on('message', (m: Request) => {
    const results = m.jobs.map(encryptOne);
    const transfer = results.flatMap((r) => (r.ok && r.body.byteLength > 0 ? [r.body.buffer as ArrayBuffer] : []));
    port.postMessage({ id: m.id, results } satisfies Reply, transfer);
  });
}

if (parentPort && (workerData as { mark?: string } | null)?.mark === WORKER_MARK) serve(parentPort);

// ── The server's side ────────────────────────────────────────────────────────

export interface EncryptThread {
  /** The jobs' results, in order. */
  encrypt(jobs: EncryptJob[]): Promise<Encrypted[]>;
  close(): Promise<void>;
}

/** Starts the thread; a thread that dies fails what it held, and the next call starts a new one. */
export function startEncryptThread(): EncryptThread {
  let worker: Worker | null = null;
  let next = 1;
  const pending = new Map<number, { resolve: (results: Encrypted[]) => void; reject: (err: Error) => void }>();

  const start = (): Worker => {
    const self = JSON.stringify(import.meta.url);
    const entry = import.meta.url.endsWith('.ts')
      ? `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((tsx) => { tsx.register(); return import(${self}); })`
      : `import(${self})`;
    const started = new Worker(entry, { eval: true, workerData: { mark: WORKER_MARK } });
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
    started.on('exit', (code) => failAll(new Error(`push encryption thread exited (${code})`)));
    return started;
  };

  return {
    encrypt(jobs) {
      if (jobs.length === 0) return Promise.resolve([]);
      worker ??= start();
      const id = next++;
      const w = worker;
      w.ref();
      return new Promise<Encrypted[]>((resolve, reject) => {
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
