import { eq } from 'drizzle-orm';
import webpush from 'web-push';
import { base64urlBytes } from '../../../domain/push.js';
import type { PushConfig } from '../../config.js';
import type { Db } from '../../db/connect.js';
import { appSecrets } from '../../db/schema.js';

/** The VAPID identity every push is signed with: the key pair and whom push services may contact. */
export interface VapidDetails {
  publicKey: string;
  privateKey: string;
  subject: string;
}

const SECRET_NAME = 'vapid';

function isKeyPair(value: unknown): value is { publicKey: string; privateKey: string } {
  const v = value as { publicKey?: unknown; privateKey?: unknown } | null;
  return (
    typeof v?.publicKey === 'string' &&
    typeof v.privateKey === 'string' &&
    base64urlBytes(v.publicKey)?.length === 65 &&
    base64urlBytes(v.privateKey)?.length === 32
  );
}

/**
 * The VAPID keys: from the environment when given (VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY), else the
 * pair kept in app_secrets. The first start makes one and inserts it ON CONFLICT DO NOTHING, then
 * everyone reads the row back: instances starting together on one database all end up with the
 * pair that was inserted first, and a restart keeps it (a new pair would orphan every subscription).
 */
export async function loadVapidKeys(db: Db, push: PushConfig): Promise<VapidDetails> {
  if (push.vapidKeys) return { ...push.vapidKeys, subject: push.subject };
  const fresh = webpush.generateVAPIDKeys();
  await db
    .insert(appSecrets)
    .values({ name: SECRET_NAME, value: { publicKey: fresh.publicKey, privateKey: fresh.privateKey } })
    .onConflictDoNothing();
  const [row] = await db.select({ value: appSecrets.value }).from(appSecrets).where(eq(appSecrets.name, SECRET_NAME));
  if (!isKeyPair(row?.value))
    throw new Error("app_secrets 'vapid' is not a VAPID key pair: delete the row to make a new one (every push subscription must then subscribe again)");
  return { publicKey: row.value.publicKey, privateKey: row.value.privateKey, subject: push.subject };
}

const loaded = new WeakMap<object, Promise<VapidDetails>>();

/**
 * The app's keys, loaded once per app (keyed on its context): the routes load them while the app
 * starts, so the first start makes them before any request, and the sender reuses the same answer.
 */
export function vapidKeysOf(ctx: { db: Db; config: { push: PushConfig } }): Promise<VapidDetails> {
  let keys = loaded.get(ctx);
  if (!keys) {
    keys = loadVapidKeys(ctx.db, ctx.config.push);
    // A failed load (a database hiccup) is tried again by the next caller.
    keys.catch(() => loaded.delete(ctx));
    loaded.set(ctx, keys);
  }
  return keys;
}
