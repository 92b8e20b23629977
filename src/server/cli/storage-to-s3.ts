/**
 * `npm run storage:to-s3`: copies the images under DATA_DIR/uploads into the S3 bucket that
 * STORAGE=s3 and the S3_* variables name, under the same keys, and the shows' replays and clips
 * (`replays/…`, `clips/…`) too, streamed, as private objects the replays feature serves. Run it with the environment the
 * server will run with. It can be run again: an object already in the bucket with the same size is
 * skipped. Nothing in the database changes (records keep their `/uploads/<key>` URLs, which the server
 * on S3 redirects to the bucket), and no local file is deleted: the operator does that after checking.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';
import { ConfigError, loadConfig } from '../config.js';
import { loadDotEnv } from '../dotenv.js';
import { createS3Client, createS3Storage, type S3StorageConfig } from '../providers/storage/s3.js';
import { CONTENT_TYPES, SERVABLE_KEY, VIDEO_KEY } from '../providers/storage/types.js';

class MoveError extends Error {}

/** Files uploaded at once; enough to hide the round trips without flooding a small link. */
const PARALLEL = 4;

type Outcome = 'uploaded' | 'replaced' | 'skipped' | 'failed';

/** A replay, its poster or a clip as the replays job stored it: streamed up, never held whole in memory. */
const isReplayFile = (key: string) => /^(?:replays|clips)\//.test(key) && VIDEO_KEY.test(key);

async function main(): Promise<void> {
  loadDotEnv();
  const config = loadConfig(process.env, { persistSecret: false });
  if (config.storage.kind !== 's3') {
    throw new MoveError('STORAGE must be s3, with S3_BUCKET and the other S3_* variables the server will run with (see "Images on S3" in the README).');
  }
  const s3 = config.storage;
  const root = path.join(config.dataDir, 'uploads');
  const files = await listFiles(root);
  const images = files.filter((key) => SERVABLE_KEY.test(key));
  const replayFiles = files.filter(isReplayFile);
  const keys = [...images, ...replayFiles];
  const ignored = files.filter((key) => !SERVABLE_KEY.test(key) && !isReplayFile(key));
  const what = replayFiles.length > 0 ? `${images.length} images and ${replayFiles.length} replay files` : `${images.length} images`;
  console.log(`${what} in ${root} → bucket "${s3.bucket}" (${s3.endpoint ?? `AWS S3, ${s3.region}`})`);
  for (const key of ignored) console.log(`  left alone (not an image the server stored): ${key}`);

  const client = await createS3Client(s3);
  const storage = createS3Storage(s3);
  const counts: Record<Outcome, number> = { uploaded: 0, replaced: 0, skipped: 0, failed: 0 };
  let done = 0;
  let next = 0;
  const width = String(keys.length).length;
  const worker = async () => {
    for (let i = next++; i < keys.length; i = next++) {
      const key = keys[i] as string;
      let outcome: Outcome;
      let detail = '';
      try {
        outcome = await moveOne({ client, s3, storage, root, key });
      } catch (err) {
        outcome = 'failed';
        detail = `: ${err instanceof Error ? `${err.name} ${err.message}` : String(err)}`;
      }
      counts[outcome]++;
      done++;
      console.log(`  [${String(done).padStart(width)}/${keys.length}] ${key} ${describe(outcome)}${detail}`);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, keys.length) }, worker));
  client.destroy();

  console.log(
    `Done: ${counts.uploaded} uploaded, ${counts.replaced} replaced (a different size was in the bucket), ${counts.skipped} already in the bucket, ${counts.failed} failed.`,
  );
  console.log(
    `Nothing in the database was changed: with STORAGE=s3 the server redirects /uploads/<key> to ${s3.publicUrl}/<key>, and reads replays and clips from the bucket.`,
  );
  console.log(`No local file was deleted: once the pages show their images from the bucket, delete ${root} yourself.`);
  if (counts.failed > 0) throw new MoveError(`${counts.failed} files were not copied; run the command again (it skips what is already in the bucket).`);
}

function describe(outcome: Outcome): string {
  return { uploaded: 'uploaded', replaced: 'replaced', skipped: 'already in the bucket', failed: 'FAILED' }[outcome];
}

/** Every file under the folder, as keys (`images/2026/11/<id>.jpg`), sorted; none when it does not exist. */
async function listFiles(root: string): Promise<string[]> {
  try {
    const entries = await readdir(root, { recursive: true, withFileTypes: true });
    return entries
      .filter((d) => d.isFile())
      .map((d) => path.relative(root, path.join(d.parentPath, d.name)).split(path.sep).join('/'))
      .sort();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
}

async function moveOne(o: { client: S3Client; s3: S3StorageConfig; storage: ReturnType<typeof createS3Storage>; root: string; key: string }): Promise<Outcome> {
  const file = path.join(o.root, ...o.key.split('/'));
  const { size } = await stat(file);
  const existing = await objectSize(o.client, o.s3.bucket, o.key);
  if (existing === size) return 'skipped';
  const contentType = CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
  // The same call the server makes for a new file: same content type rules and cache header.
  if (isReplayFile(o.key)) await o.storage.putFile(o.key, file, contentType);
  else await o.storage.put(o.key, await readFile(file), contentType);
  return existing === null ? 'uploaded' : 'replaced';
}

/** The size of the object at `key`, or null when the bucket has none. */
async function objectSize(client: S3Client, bucket: string, key: string): Promise<number | null> {
  const { HeadObjectCommand } = await import('@aws-sdk/client-s3');
  try {
    const head = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
    return head.ContentLength ?? null;
  } catch (err) {
    if ((err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return null;
    throw err;
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err instanceof MoveError || err instanceof ConfigError ? err.message : err);
    process.exit(1);
  },
);
