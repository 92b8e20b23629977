import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { killAndWait } from './child-process.js';

/** s3rver knows one account: these keys, or any request is refused as InvalidAccessKeyId. */
export const S3RVER_KEYS = { S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER' } as const;

export interface S3Server {
  /** http://127.0.0.1:<port>, the S3 API and, path-style, the buckets' public address. */
  endpoint: string;
  bucket: string;
  /** STORAGE=s3 and every S3_* variable that points the app at this server's bucket. */
  env: Record<string, string>;
  /** The object at `key`, read anonymously as a browser would: null when there is none. */
  get(key: string): Promise<{ body: Buffer; contentType: string | null; cacheControl: string | null } | null>;
  /** Every key in the bucket, sorted (s3rver lists anonymously; one page is plenty for a test). */
  keys(): Promise<string[]>;
  stop(): Promise<void>;
}

const s3rverBin = path.join(path.dirname(createRequire(import.meta.url).resolve('s3rver/package.json')), 'bin', 's3rver.js');

/**
 * s3rver (an S3 API server on the local disk) in its own process, on a free port chosen by the
 * system and read back from its start-up line, with one empty bucket in a temporary folder.
 */
export async function startS3Server(opts: { bucket?: string } = {}): Promise<S3Server> {
  const bucket = opts.bucket ?? `martillo-${randomUUID().slice(0, 8)}`;
  const directory = await mkdtemp(path.join(tmpdir(), 'martillo-s3rver-'));
  const child = spawn(
    process.execPath,
    [s3rverBin, '--directory', directory, '--address', '127.0.0.1', '--port', '0', '--silent', '--configure-bucket', bucket],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let port: number;
  try {
    port = await listeningPort(child);
  } catch (err) {
    child.kill('SIGKILL');
    await rm(directory, { recursive: true, force: true });
    throw err;
  }
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    env: { STORAGE: 's3', S3_BUCKET: bucket, S3_ENDPOINT: endpoint, S3_REGION: 'us-east-1', ...S3RVER_KEYS },
    async get(key) {
      const res = await fetch(`${endpoint}/${bucket}/${key.split('/').map(encodeURIComponent).join('/')}`);
      if (res.status === 404) return null;
      if (!res.ok) throw new Error(`s3rver answered ${res.status} for ${key}: ${await res.text()}`);
      return { body: Buffer.from(await res.arrayBuffer()), contentType: res.headers.get('content-type'), cacheControl: res.headers.get('cache-control') };
    },
    async keys() {
      const res = await fetch(`${endpoint}/${bucket}?list-type=2&max-keys=1000`);
      if (!res.ok) throw new Error(`s3rver answered ${res.status} to a listing: ${await res.text()}`);
      return [...(await res.text()).matchAll(/<Key>([^<]*)<\/Key>/g)].map((m) => m[1] as string).sort();
    },
    async stop() {
      await killAndWait(child, 'SIGTERM');
      await rm(directory, { recursive: true, force: true });
    },
  };
}

/** Waits for "S3rver listening on 127.0.0.1:<port>"; a process that exits first fails with what it printed. */
function listeningPort(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const onExit = (code: number | null) => reject(new Error(`s3rver exited (${code}) before listening:\n${out}${err}`));
    child.stderr?.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /S3rver listening on [^:\s]+:(\d+)/.exec(out);
      if (match) {
        child.off('exit', onExit);
        resolve(Number(match[1]));
      }
    });
    child.once('exit', onExit);
  });
}
