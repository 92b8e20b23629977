import { createECDH, createPublicKey, type ECDH, randomBytes, verify } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import ece from 'http_ece';

/**
 * A local Web Push service, a real HTTP server that answers as FCM, Mozilla's autopush or Apple's
 * service do: it takes `POST /push/<id>`, checks the VAPID `Authorization: vapid t=<JWT>, k=<key>`
 * (ES256 over the P-256 key in `k`, audience = this service's origin, not expired, a subject),
 * DECRYPTS the aes128gcm body with the subscription's private key and auth secret (`http_ece`),
 * and records the plaintext with the TTL, Topic and Urgency headers. A test can make it answer
 * 404, 410, 429 or 500 for an endpoint, a number of times or for good.
 *
 * Subscriptions come from `makeSubscription(service)`: an ECDH P-256 key pair and a 16-byte auth
 * secret, as a browser makes them, and the JSON `pushManager.subscribe()` would hand the page.
 */

export interface ReceivedPush {
  subscriptionId: string;
  /** The decrypted body, parsed as JSON when it is JSON (else the text); null when it was not decrypted. */
  payload: unknown;
  ttl: number | null;
  topic: string | null;
  urgency: string | null;
  /** The VAPID public key the push was signed with (the `k=` of the Authorization). */
  vapidKey: string;
  /** The JWT's claims. */
  claims: { aud: string; exp: number; sub: string };
  /** Date.now() when it was accepted. */
  at: number;
}

export interface PushAttempt {
  subscriptionId: string;
  status: number;
  /** Why it was refused, when this service refused it on its own (a bad signature, a body it could not decrypt). */
  reason?: string;
  at: number;
}

export interface PushService {
  /** http://127.0.0.1:<port> */
  origin: string;
  /** Every accepted (201) push, in order. */
  received: ReceivedPush[];
  /** Every request, answered or refused. */
  attempts: PushAttempt[];
  /** Answer `status` to the subscription's next `times` pushes (Infinity: until told otherwise). */
  answer(subscriptionId: string, status: number, times?: number): void;
  /** Resolves once `count` pushes have been accepted in all. */
  waitForReceived(count: number, timeoutMs?: number): Promise<ReceivedPush[]>;
  /**
   * Which pushes to decrypt: all (true), none, or those whose subscription the function picks (a
   * bench checks a sample). Each push is still checked for its signature.
   */
  decrypt: boolean | ((subscriptionId: string) => boolean);
  close(): Promise<void>;
}

interface Held {
  ecdh: ECDH;
  auth: string;
}

const services = new WeakMap<PushService, Map<string, Held>>();

export interface TestSubscription {
  id: string;
  /** What the browser hands the page: POST it to /api/push/subscriptions. */
  endpoint: string;
  expirationTime: null;
  keys: { p256dh: string; auth: string };
  /** Decrypts an aes128gcm body sent to this subscription. */
  decrypt(body: Buffer): Buffer;
  toJSON(): { endpoint: string; expirationTime: null; keys: { p256dh: string; auth: string } };
}

/** A new browser subscription on `service`: its own key pair and auth secret, its own endpoint. */
export function makeSubscription(service: PushService, opts: { endpoint?: string } = {}): TestSubscription {
  const held = services.get(service);
  if (!held) throw new Error('not a push service from startPushService()');
  const id = randomBytes(12).toString('base64url');
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16).toString('base64url');
  held.set(id, { ecdh, auth });
  const endpoint = opts.endpoint ?? `${service.origin}/push/${id}`;
  const keys = { p256dh: ecdh.getPublicKey().toString('base64url'), auth };
  return {
    id,
    endpoint,
    expirationTime: null,
    keys,
    decrypt: (body) => decryptFor({ ecdh, auth }, body),
    toJSON: () => ({ endpoint, expirationTime: null, keys }),
  };
}

function decryptFor(held: Held, body: Buffer): Buffer {
  return ece.decrypt(body, { version: 'aes128gcm', privateKey: held.ecdh, authSecret: held.auth });
}

/** Verifies `vapid t=<jwt>, k=<key>`: ES256 over the P-256 key `k`, the audience, the expiry. Throws the reason. */
export function verifyVapid(header: string | undefined, origin: string): { vapidKey: string; claims: ReceivedPush['claims'] } {
  const match = /^vapid t=([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? '');
  if (!match) throw new Error('no vapid authorization');
  const [, jwt = '', k = ''] = match;
  const raw = Buffer.from(k, 'base64url');
  if (raw.length !== 65 || raw[0] !== 4) throw new Error('k is not an uncompressed P-256 point');
  const key = createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: raw.subarray(1, 33).toString('base64url'), y: raw.subarray(33).toString('base64url') },
    format: 'jwk',
  });
  const [head = '', body = '', signature = ''] = jwt.split('.');
  const header2 = JSON.parse(Buffer.from(head, 'base64url').toString('utf8')) as { alg?: string };
  if (header2.alg !== 'ES256') throw new Error(`alg ${header2.alg}`);
  const ok = verify('sha256', Buffer.from(`${head}.${body}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url'));
  if (!ok) throw new Error('bad signature');
  const claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as ReceivedPush['claims'];
  if (claims.aud !== origin) throw new Error(`audience ${claims.aud}, expected ${origin}`);
  const now = Math.floor(Date.now() / 1000);
  if (!(claims.exp > now && claims.exp <= now + 24 * 3600)) throw new Error('expired or more than 24 h ahead');
  if (!/^(mailto:|https:)/.test(claims.sub ?? '')) throw new Error('no subject');
  return { vapidKey: k, claims };
}

export async function startPushService(opts: { port?: number; host?: string } = {}): Promise<PushService> {
  const held = new Map<string, Held>();
  const scripted = new Map<string, { status: number; times: number }>();
  const waiters: { count: number; resolve: () => void }[] = [];
  // A sender reuses its VAPID token for hours, as real push services expect: its signature is checked
  // once (as they cache it), its expiry on every push.
  const vapidSeen = new Map<string, ReturnType<typeof verifyVapid>>();
  const verifiedVapid = (header: string | undefined) => {
    const seen = header ? vapidSeen.get(header) : undefined;
    if (!seen) {
      const fresh = verifyVapid(header, service.origin);
      vapidSeen.set(header as string, fresh);
      return fresh;
    }
    if (!(seen.claims.exp > Math.floor(Date.now() / 1000))) throw new Error('expired or more than 24 h ahead');
    return seen;
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const id = /^\/push\/([A-Za-z0-9_-]+)$/.exec(req.url ?? '')?.[1] ?? '';
      const answer = (status: number, reason?: string) => {
        service.attempts.push({ subscriptionId: id, status, ...(reason ? { reason } : {}), at: Date.now() });
        res.writeHead(status, { 'content-type': 'text/plain' }).end(reason ?? '');
      };
      if (req.method !== 'POST') return answer(405, 'POST only');
      const sub = held.get(id);
      if (!sub) return answer(404, 'no such subscription');
      const script = scripted.get(id);
      if (script && script.times > 0) {
        script.times--;
        return answer(script.status);
      }
      let auth: ReturnType<typeof verifyVapid>;
      try {
        auth = verifiedVapid(req.headers.authorization);
      } catch (err) {
        return answer(401, (err as Error).message);
      }
      if (req.headers['content-encoding'] !== 'aes128gcm') return answer(415, 'aes128gcm only');
      let payload: unknown = null;
      if (typeof service.decrypt === 'function' ? service.decrypt(id) : service.decrypt) {
        try {
          const text = decryptFor(sub, Buffer.concat(chunks)).toString('utf8');
          try {
            payload = JSON.parse(text);
          } catch {
            payload = text;
          }
        } catch (err) {
          return answer(400, `cannot decrypt: ${(err as Error).message}`);
        }
      }
      const header = (name: string) => (typeof req.headers[name] === 'string' ? (req.headers[name] as string) : null);
      const ttl = header('ttl');
      service.received.push({
        subscriptionId: id,
        payload,
        ttl: ttl === null ? null : Number(ttl),
        topic: header('topic'),
        urgency: header('urgency'),
        vapidKey: auth.vapidKey,
        claims: auth.claims,
        at: Date.now(),
      });
      answer(201);
      for (const w of waiters.splice(0)) {
        if (service.received.length >= w.count) w.resolve();
        else waiters.push(w);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const service: PushService = {
    origin: `http://127.0.0.1:${port}`,
    received: [],
    attempts: [],
    decrypt: true,
    answer(subscriptionId, status, times = Number.POSITIVE_INFINITY) {
      scripted.set(subscriptionId, { status, times });
    },
    waitForReceived(count, timeoutMs = 10_000) {
      if (service.received.length >= count) return Promise.resolve(service.received);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${service.received.length} of ${count} pushes arrived`)), timeoutMs);
        waiters.push({
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve(service.received);
          },
        });
      });
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  services.set(service, held);
  return service;
}
