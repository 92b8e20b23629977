import { type ChildProcess, fork } from 'node:child_process';
import { createRequire } from 'node:module';
import { Socket } from 'node:net';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { SfuErrorCode, SfuEvent, SfuMessage, SfuReply, SfuRequest, SfuStats, SfuWorkerConfig } from './protocol.js';

/** A request as the caller writes it: the supervisor numbers it. */
export type SfuCall = SfuRequest extends infer R ? (R extends SfuRequest ? Omit<R, 'id'> : never) : never;
export interface SfuAnswer {
  sdp?: string;
  stats?: SfuStats;
}

export class SfuRequestError extends Error {
  override name = 'SfuRequestError';
  constructor(
    /** 'unavailable': the child is down, restarting, or did not answer in time. */
    readonly code: SfuErrorCode | 'unavailable',
    message: string = code,
  ) {
    super(message);
  }
}

export interface SfuSupervisor {
  request(call: SfuCall, timeoutMs?: number): Promise<SfuAnswer>;
  /** The child is running and answered its start. */
  isUp(): boolean;
  /** Whether the child is up, waiting up to `timeoutMs` when it is starting (not when it is backing off). */
  ready(timeoutMs: number): Promise<boolean>;
  pid(): number | null;
  close(): Promise<void>;
}

interface Options {
  config: SfuWorkerConfig;
  log: { info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void; error(obj: object, msg?: string): void };
  onEvent(event: Exclude<SfuEvent, { t: 'ready' }>): void;
  /** The child died unasked: every peer it held is gone. Called before the restart is scheduled. */
  onExit(): void;
}

/** Restart delays grow from this while the child keeps dying young. */
const BACKOFF_BASE_MS = 250;
/** A child that never answered its start (a broken install): there is nothing to serve, so it retries slowly. */
const BACKOFF_MAX_MS = 30_000;
/**
 * A child that was serving and died: every show waits for the restart, so it never waits longer
 * than this. Its start works, and a crash loop caused by what it serves (a request) would
 * otherwise turn into 30 s of refusals for everyone; a restart every 2 s costs one fork.
 */
const CRASH_BACKOFF_MAX_MS = 2000;
/** A child that lived this long resets the backoff: it was a crash, not a crash loop. */
const STABLE_AFTER_MS = 60_000;
const REQUEST_TIMEOUT_MS = 10_000;

/** How long to wait before starting the child again, after `attempts` young deaths in a row. */
export function restartDelay(attempts: number, wasUp: boolean): number {
  return Math.min(wasUp ? CRASH_BACKOFF_MAX_MS : BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** attempts);
}

/** The worker beside this file, run by tsx when the server itself runs from TypeScript (`npm start`, vitest). */
function workerEntry(): { file: string; execArgv: string[] } {
  const here = fileURLToPath(import.meta.url);
  const ext = path.extname(here);
  const file = path.join(path.dirname(here), `worker${ext}`);
  if (ext !== '.ts') return { file, execArgv: [] };
  const loader = createRequire(import.meta.url).resolve('tsx');
  return { file, execArgv: ['--import', pathToFileURL(loader).href] };
}

/**
 * Runs the SFU child process (sfu/worker.ts), from the first request that needs it, and keeps it running: a child that dies is logged
 * and started again after a delay that doubles while it keeps dying young (up to 2 s when it
 * had been serving, 30 s when it never started), so a broken native module cannot spin the
 * machine. Requests in flight when it dies fail as 'unavailable'.
 */
export function createSfuSupervisor(opts: Options): SfuSupervisor {
  const entry = workerEntry();
  let child: ChildProcess | null = null;
  let up = false;
  let closed = false;
  /** Started on first use: a server nobody broadcasts from runs no SFU process (nor do most tests). */
  let started = false;
  let startedAt = 0;
  let attempts = 0;
  let restartTimer: NodeJS.Timeout | null = null;
  let nextId = 0;
  const pending = new Map<number, { resolve(answer: SfuAnswer): void; reject(err: Error): void; timer: NodeJS.Timeout }>();
  let readyWaiters: ((isUp: boolean) => void)[] = [];
  let exited: Promise<void> = Promise.resolve();

  function settleReady(isUp: boolean) {
    const waiters = readyWaiters;
    readyWaiters = [];
    for (const w of waiters) w(isUp);
  }

  function start() {
    restartTimer = null;
    if (closed) return;
    started = true;
    startedAt = Date.now();
    const proc = fork(entry.file, [], {
      execArgv: entry.execArgv,
      env: { ...process.env, SFU_CONFIG: JSON.stringify(opts.config) },
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      serialization: 'json',
    });
    child = proc;
    // Nothing here keeps the server's event loop alive: its HTTP server does that.
    proc.unref();
    proc.channel?.unref();
    proc.stderr?.setEncoding('utf8');
    proc.stderr?.on('data', (chunk: string) => opts.log.warn({ sfu: chunk.trim().slice(0, 2000) }, 'embedded SFU says'));
    // A child's pipe is a net.Socket, though typed as a plain stream; unref'd, it holds no loop open either.
    if (proc.stderr instanceof Socket) proc.stderr.unref();
    proc.on('message', (raw: unknown) => onMessage(raw as SfuMessage));
    proc.on('error', (err) => opts.log.error({ err }, 'embedded SFU process error'));
    exited = new Promise((resolve) => {
      proc.once('exit', (code, signal) => {
        onChildExit(proc, code, signal);
        resolve();
      });
    });
  }

  function onMessage(message: SfuMessage) {
    if (!message || typeof message !== 'object') return;
    if (message.t === 'ready') {
      up = true;
      opts.log.info({ pid: message.pid }, 'embedded SFU started');
      settleReady(true);
      return;
    }
    if (message.t === 'reply') return settle(message);
    opts.onEvent(message);
  }

  function settle(reply: SfuReply) {
    const call = pending.get(reply.id);
    if (!call) return;
    pending.delete(reply.id);
    clearTimeout(call.timer);
    if (reply.ok) call.resolve({ ...(reply.sdp !== undefined ? { sdp: reply.sdp } : {}), ...(reply.stats ? { stats: reply.stats } : {}) });
    else call.reject(new SfuRequestError(reply.error, reply.message));
  }

  function onChildExit(proc: ChildProcess, code: number | null, signal: NodeJS.Signals | null) {
    if (child !== proc) return;
    const wasUp = up;
    child = null;
    up = false;
    for (const [id, call] of pending) {
      clearTimeout(call.timer);
      call.reject(new SfuRequestError('unavailable', 'the embedded SFU exited'));
      pending.delete(id);
    }
    if (closed) return settleReady(false);
    if (Date.now() - startedAt >= STABLE_AFTER_MS) attempts = 0;
    const delay = restartDelay(attempts, wasUp);
    attempts++;
    opts.log.error({ code, signal, restartInMs: delay, attempt: attempts }, 'embedded SFU exited; restarting it');
    settleReady(false);
    if (wasUp) opts.onExit();
    restartTimer = setTimeout(start, delay);
    restartTimer.unref();
  }

  return {
    request(call, timeoutMs = REQUEST_TIMEOUT_MS) {
      const proc = child;
      if (!up || !proc?.connected) return Promise.reject(new SfuRequestError('unavailable', 'the embedded SFU is not running'));
      const id = ++nextId;
      return new Promise<SfuAnswer>((resolve, reject) => {
        const timer = setTimeout(() => {
          pending.delete(id);
          reject(new SfuRequestError('unavailable', `the embedded SFU did not answer ${call.t} in ${timeoutMs} ms`));
        }, timeoutMs);
        pending.set(id, { resolve, reject, timer });
        try {
          proc.send({ ...call, id } as SfuRequest);
        } catch (err) {
          pending.delete(id);
          clearTimeout(timer);
          reject(new SfuRequestError('unavailable', err instanceof Error ? err.message : String(err)));
        }
      });
    },
    isUp: () => up,
    ready(timeoutMs) {
      if (up) return Promise.resolve(true);
      if (!started && !closed) start();
      if (closed || !child) return Promise.resolve(false);
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          readyWaiters = readyWaiters.filter((w) => w !== waiter);
          resolve(false);
        }, timeoutMs);
        const waiter = (isUp: boolean) => {
          clearTimeout(timer);
          resolve(isUp);
        };
        readyWaiters.push(waiter);
      });
    },
    pid: () => (up && child?.pid !== undefined ? child.pid : null),
    async close() {
      closed = true;
      if (restartTimer) clearTimeout(restartTimer);
      restartTimer = null;
      const proc = child;
      if (!proc) return;
      // The worker exits when its IPC channel closes; a stuck one is killed.
      const killer = setTimeout(() => proc.kill('SIGKILL'), 3000);
      try {
        if (proc.connected) proc.disconnect();
        else proc.kill('SIGKILL');
      } catch {
        proc.kill('SIGKILL');
      }
      await exited;
      clearTimeout(killer);
    },
  };
}
