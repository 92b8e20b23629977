import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { findOnPath } from './tools.js';

/** Why ffmpeg or ffprobe could not do a job: the message is short enough for the UI (at most ERROR_MAX_CHARS). */
export class MediaError extends Error {
  override name = 'MediaError';
}

/** A reason the seller can read beside 'Reintentar', not ffmpeg's whole log. */
export const ERROR_MAX_CHARS = 500;
const STDERR_KEPT_CHARS = 8_000;

/**
 * A path as ffmpeg and ffprobe are given it. Callers build the paths, but an empty one or one that
 * starts with '-' (ffmpeg would read it as an option) is refused; what is passed on is absolute and
 * prefixed with 'file:', so a name that looks like a protocol ('http:', 'concat:', 'pipe:') is read
 * as a file too.
 */
export function mediaPath(value: string, what: string): string {
  if (typeof value !== 'string' || value.length === 0) throw new MediaError(`${what}: empty path`);
  if (value.startsWith('-')) throw new MediaError(`${what}: a path may not start with '-'`);
  if (value.includes('\0')) throw new MediaError(`${what}: a path may not contain a NUL byte`);
  return `file:${path.resolve(value)}`;
}

/** Where `output` is written until it is complete: beside it (same file system, so the rename is atomic), hidden, with its extension kept. */
export function tempPathFor(output: string): string {
  const ext = path.extname(output);
  return path.join(path.dirname(output), `.${path.basename(output)}.${randomBytes(4).toString('hex')}.part${ext}`);
}

/** Writes through a temp file renamed to `output` on success, so a half-written file never appears under its name; removed on failure. */
export async function writeAtomically<T>(output: string, write: (temp: string) => Promise<T>): Promise<T> {
  const temp = tempPathFor(output);
  try {
    const result = await write(temp);
    await rename(temp, output);
    return result;
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
}

/** The error an aborted job rejects with; its name is 'AbortError', as fetch's is. */
export function abortError(signal: AbortSignal): Error {
  const err = new MediaError('stopped before it finished', { cause: signal.reason });
  err.name = 'AbortError';
  return err;
}

// `nice` is looked up once; where it is missing (not Linux, a bare container) ffmpeg runs plainly.
let niceBinary: Promise<string | null> | null = null;
const findNice = () => {
  niceBinary ??= process.platform === 'win32' ? Promise.resolve(null) : findOnPath('nice');
  return niceBinary;
};

// A child still running when this process exits is killed with it, so no ffmpeg is left writing a temp file nobody will rename.
const running = new Set<ChildProcess>();
let exitHookInstalled = false;
function track(child: ChildProcess) {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', () => {
      for (const c of running) c.kill('SIGKILL');
    });
  }
  running.add(child);
  child.once('close', () => running.delete(child));
}

export interface RunOptions {
  /** Niceness for `nice -n`; null or undefined runs at the caller's own priority. */
  nice?: number | null;
  signal?: AbortSignal;
  /** Called with ffmpeg's `out_time_us` from `-progress pipe:1` as it advances. */
  onOutTimeUs?: (outTimeUs: number) => void;
  /** Paths that may appear in ffmpeg's messages, shown by their file name only in an error. */
  paths?: string[];
}

/**
 * Runs a binary (ffmpeg or ffprobe) with `args` as an array, never through a shell, and resolves with
 * its stdout once it exits 0. It rejects with a MediaError carrying the last lines of its stderr when
 * it fails, and with an AbortError once the signal aborts, after the child (killed with SIGKILL) has
 * exited.
 */
export async function runMedia(binary: string, args: string[], opts: RunOptions = {}): Promise<string> {
  const { signal } = opts;
  if (signal?.aborted) throw abortError(signal);
  const nice = opts.nice == null ? null : await findNice();
  if (signal?.aborted) throw abortError(signal);
  const [command, argv] = nice ? [nice, ['-n', String(Math.trunc(opts.nice ?? 0)), binary, ...args]] : [binary, args];

  return new Promise<string>((resolve, reject) => {
    const child = spawn(command, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
    track(child);
    let stdout = '';
    let stderr = '';
    let pending = '';
    let failure: Error | null = null;

    const stop = (err: Error) => {
      failure ??= err;
      child.kill('SIGKILL');
    };
    const onAbort = () => stop(abortError(signal as AbortSignal));
    signal?.addEventListener('abort', onAbort, { once: true });

    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      if (!opts.onOutTimeUs) {
        stdout += chunk;
        return;
      }
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        const match = /^out_time_us=(\d+)/.exec(line);
        if (!match) continue;
        try {
          opts.onOutTimeUs(Number(match[1]));
        } catch (err) {
          stop(err instanceof Error ? err : new Error(String(err)));
        }
      }
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-STDERR_KEPT_CHARS);
    });

    child.once('error', (err) => {
      signal?.removeEventListener('abort', onAbort);
      reject(new MediaError(`${path.basename(binary)} could not start: ${err.message}`, { cause: err }));
    });
    child.once('close', (code, killedBy) => {
      signal?.removeEventListener('abort', onAbort);
      if (failure) return reject(failure);
      if (code === 0) return resolve(stdout);
      const why = killedBy ? `killed by ${killedBy}` : `exit ${code}`;
      reject(new MediaError(describeFailure(path.basename(binary), why, stderr, opts.paths ?? [])));
    });
  });
}

/** '<binary> failed (exit 1): <its last stderr lines>', paths reduced to their file names, at most ERROR_MAX_CHARS. */
export function describeFailure(binary: string, why: string, stderr: string, paths: string[]): string {
  let text = stderr;
  for (const p of paths) {
    const abs = path.resolve(p);
    text = text.replaceAll(`file:${abs}`, path.basename(abs)).replaceAll(abs, path.basename(abs));
  }
  const lines = text
    .split(/\r?\n/)
    // '[matroska,webm @ 0x55d0c1a3c180] EBML header parsing failed' → '[matroska,webm] EBML header parsing failed'.
    .map((l) => l.replace(/ @ 0x[0-9a-f]+\]/, ']').trim())
    .filter(Boolean);
  const head = `${binary} failed (${why})`;
  if (lines.length === 0) return head;
  let tail = lines.join('; ');
  const room = ERROR_MAX_CHARS - head.length - 2;
  if (tail.length > room) tail = `…${tail.slice(-(room - 1))}`;
  return `${head}: ${tail}`;
}
