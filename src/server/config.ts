import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { type IceServer, VIDEO_PROVIDERS, type VideoProviderName } from '../domain/video.js';
import type { MercadoPagoOptions } from './providers/payments/mercadopago.js';

const emailList = z
  .string()
  .transform((s) =>
    s
      .split(/[,\s]+/)
      .map((e) => e.trim().toLowerCase())
      .filter(Boolean),
  )
  .pipe(z.array(z.email({ error: 'a comma-separated list of email addresses' })));

const httpUrl = (what: string) => z.url({ protocol: /^https?$/, error: `${what} (an http:// or https:// URL)` });

/** One address or CIDR range, IPv4 or IPv6 ('10.0.0.0/8', '192.168.1.20', '2001:db8::/32'). */
const ZAddressRange = z.string().refine((entry) => {
  const [address = '', prefix, extra] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || extra !== undefined) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}, 'a comma-separated list of IP addresses or CIDR ranges, such as 10.0.0.0/8,192.168.1.20');

const addressList = z
  .string()
  .transform((s) => s.split(/[,\s]+/).filter(Boolean))
  .pipe(z.array(ZAddressRange));

/** Each variable's schema; its error text says what the variable expects. */
const ZEnv = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test'], { error: 'one of development, production, test' }).default('development'),
  PORT: z.coerce.number({ error: 'a port number' }).int().min(0).max(65535, { error: 'a port number between 0 and 65535' }).default(3000),
  HOST: z.string().min(1).optional(),
  REQUEST_TIMEOUT_SECONDS: z.coerce.number({ error: 'a number of seconds' }).min(1).max(600, { error: 'a number of seconds between 1 and 600' }).default(30),
  UPLOAD_TIMEOUT_SECONDS: z.coerce.number({ error: 'a number of seconds' }).min(1).max(3600, { error: 'a number of seconds between 1 and 3600' }).default(180),
  SHUTDOWN_DRAIN_SECONDS: z.coerce.number({ error: 'a number of seconds' }).min(0).max(60, { error: 'a number of seconds between 0 and 60' }).default(0),
  PUBLIC_URL: httpUrl('the public address of this site').optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, { error: 'a PostgreSQL URL such as postgres://user:pass@host:5432/db' })
    .optional(),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, { error: 'a Redis URL such as redis://127.0.0.1:6379' })
    .optional(),
  SESSION_SECRET: z.string().min(32, { error: 'a random string of at least 32 characters' }).optional(),
  SESSION_DAYS: z.coerce.number({ error: 'a number of days' }).int().min(1).max(365).default(30),
  ADMIN_EMAILS: emailList.default([]),
  OIDC_ISSUER: httpUrl('the OpenID Connect issuer').default('https://accounts.google.com'),
  GOOGLE_CLIENT_ID: z.string().min(1).optional(),
  GOOGLE_CLIENT_SECRET: z.string().min(1).optional(),
  PAYMENTS_PROVIDER: z.enum(['sandbox', 'mercadopago'], { error: 'sandbox or mercadopago' }).default('sandbox'),
  /** A public demo in production may run the sandbox; its checkout pages then say they are a test. */
  PAYMENTS_SANDBOX_PUBLIC_DEMO: z
    .enum(['true', 'false', '1', '0'], { error: 'true or false' })
    .default('false')
    .transform((v) => v === 'true' || v === '1'),
  MP_ACCESS_TOKEN: z.string().min(1).optional(),
  MP_CLIENT_ID: z.string().min(1).optional(),
  MP_CLIENT_SECRET: z.string().min(1).optional(),
  MP_WEBHOOK_SECRET: z.string().min(8, { error: 'the webhook secret from Mercado Pago (Your integrations → Webhooks)' }).optional(),
  MP_API_URL: httpUrl("Mercado Pago's API base").default('https://api.mercadopago.com'),
  MP_AUTH_URL: httpUrl("Mercado Pago's authorisation base").default('https://auth.mercadopago.com'),
  MP_MARKETPLACE_FEE_PERCENT: z.coerce.number({ error: 'a percentage between 0 and 50' }).min(0).max(50, { error: 'a percentage between 0 and 50' }).default(0),
  PAYMENT_LINK_HOURS: z.coerce
    .number({ error: 'a number of hours' })
    .int()
    .min(1)
    .max(24 * 30, { error: 'a number of hours between 1 and 720' })
    .default(72),
  TOKEN_ENCRYPTION_KEY: z
    .string()
    .regex(/^([0-9a-fA-F]{64}|[A-Za-z0-9+/_-]{43}=?)$/, { error: '32 random bytes as 64 hex characters or base64 (e.g. `openssl rand -hex 32`)' })
    .optional(),
  VIDEO_PROVIDER: z.enum(VIDEO_PROVIDERS, { error: 'embedded, janus or agora' }).default('embedded'),
  /** The address the embedded SFU announces to viewers (behind NAT: the public one). */
  VIDEO_PUBLIC_IP: z.union([z.ipv4(), z.ipv6()], { error: 'an IP address such as 203.0.113.7' }).optional(),
  /** The local address the embedded SFU's UDP sockets bind (needed on loopback-only hosts: 127.0.0.1). */
  VIDEO_BIND_ADDRESS: z.union([z.ipv4(), z.ipv6()], { error: 'a local IP address such as 127.0.0.1' }).optional(),
  VIDEO_PORT_RANGE: z
    .string()
    .regex(/^\d{4,5}-\d{4,5}$/, { error: 'a UDP port range such as 20000-20999' })
    .transform((v) => v.split('-').map(Number) as [number, number])
    .refine(([a, b]) => a >= 1024 && b <= 65535 && a <= b, { error: 'a UDP port range within 1024-65535, low-high' })
    .optional(),
  ICE_SERVERS: z
    .string()
    .transform((v, ctx) => parseIceServers(v, ctx))
    .optional(),
  /** embedded: viewers the SFU process serves at once (VIDEO.md: ~500–700 fit its one JS thread at full rate). */
  VIDEO_MAX_VIEWERS: z.coerce
    .number({ error: 'a whole number of viewers' })
    .int()
    .min(1)
    .max(100_000, { error: 'a whole number of viewers between 1 and 100000' })
    .default(2000),
  /** embedded: a viewer slot whose peer has not connected within this is freed (a browser connects in well under a second). */
  VIDEO_CONNECT_TIMEOUT_SECONDS: z.coerce
    .number({ error: 'a number of seconds' })
    .min(0.1)
    .max(120, { error: 'a number of seconds between 0.1 and 120' })
    .default(10),
  /**
   * Viewers one network address counts for: video slots it may hold on the embedded SFU, and
   * sockets the viewer count counts. Small, so one machine cannot hold a large share; several
   * buyers behind one carrier-grade NAT or one Wi-Fi still fit.
   */
  VIEWERS_PER_ADDRESS: z.coerce
    .number({ error: 'a whole number of viewers' })
    .int()
    .min(1)
    .max(100_000, { error: 'a whole number of viewers between 1 and 100000' })
    .default(20),
  /**
   * Chat lines one network address may write in one show's chat in 10 seconds, all its accounts
   * together (its moderators' lines aside): many accounts on one machine cannot flood the chat,
   * while buyers sharing one Wi-Fi or one carrier's address still chat at a person's pace.
   */
  CHAT_LINES_PER_ADDRESS: z.coerce
    .number({ error: 'a whole number of lines' })
    .int()
    .min(1)
    .max(100_000, { error: 'a whole number of lines between 1 and 100000' })
    .default(10),
  JANUS_URL: z.url({ protocol: /^wss?$/, error: "Janus's WebSocket address, such as ws://127.0.0.1:8188" }).optional(),
  /** Janus as browsers reach it, when it differs from JANUS_URL (a proxy, TLS). */
  JANUS_PUBLIC_URL: z.url({ protocol: /^wss?$/, error: "Janus's WebSocket address as browsers reach it, such as wss://janus.example.com" }).optional(),
  /** Janus VideoRoom's `admin_key`, when its configuration sets one (rooms are created with it). */
  JANUS_ADMIN_KEY: z.string().min(1).optional(),
  /**
   * Edge Janus instances for viewers (their Streaming plugin), as this server reaches them: the
   * origin (JANUS_URL) forwards each show's RTP to the same hosts. Comma-separated.
   */
  JANUS_EDGES: z
    .string()
    .transform((v, ctx) => parseWebSocketList(v, ctx))
    .optional(),
  /** The same edges as browsers reach them, in the same order (default: JANUS_EDGES). */
  JANUS_EDGES_PUBLIC_URLS: z
    .string()
    .transform((v, ctx) => parseWebSocketList(v, ctx))
    .optional(),
  /** Viewers one edge takes before the next is used even when it is busier (its room). */
  JANUS_EDGE_MAX_VIEWERS: z.coerce
    .number({ error: 'a whole number of viewers' })
    .int()
    .min(1)
    .max(1_000_000, { error: 'a whole number of viewers between 1 and 1000000' })
    .default(1000),
  /**
   * Where Janus writes each room's recording (its `rec_dir`), read at the same path by this server:
   * Janus on this machine, or a folder both mount. DATA_DIR/recordings/janus by default.
   */
  JANUS_REC_DIR: z.string().min(1).optional(),
  AGORA_APP_ID: z
    .string()
    .regex(/^[0-9a-f]{32}$/i, { error: "Agora's App ID (32 hexadecimal characters)" })
    .optional(),
  AGORA_APP_CERTIFICATE: z
    .string()
    .regex(/^[0-9a-f]{32}$/i, { error: "Agora's App Certificate (32 hexadecimal characters)" })
    .optional(),
  STORAGE: z.enum(['local', 's3'], { error: 'local or s3' }).default('local'),
  // S3 or any S3-compatible service (Cloudflare R2, MinIO, DigitalOcean Spaces), used when STORAGE=s3.
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, { error: 'a bucket name (3 to 63 lower-case letters, digits, dots and hyphens)' })
    .optional(),
  S3_REGION: z
    .string()
    .regex(/^[a-z0-9-]{1,64}$/, { error: 'a region such as us-east-1 (auto on Cloudflare R2)' })
    .default('us-east-1'),
  S3_ENDPOINT: httpUrl('the S3 API address of an S3-compatible service, such as https://<account>.r2.cloudflarestorage.com').optional(),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_FORCE_PATH_STYLE: z
    .enum(['true', 'false', '1', '0'], { error: 'true or false' })
    .transform((v) => v === 'true' || v === '1')
    .optional(),
  S3_PUBLIC_URL: httpUrl('the public address of the bucket or of a CDN in front of it').optional(),
  TRUST_PROXY: z
    .enum(['true', 'false', '1', '0'], { error: 'true or false' })
    .default('false')
    .transform((v) => v === 'true' || v === '1'),
  /** Addresses (beside this machine's own) that may read /metrics and /api/openapi.json without the token. */
  METRICS_ALLOW: addressList.default([]),
  /** Anyone sending it as `Authorization: Bearer <token>` may read them from anywhere. */
  METRICS_TOKEN: z.string().min(32, { error: 'a random string of at least 32 characters (e.g. `openssl rand -hex 32`)' }).optional(),
  /** The web app's source maps, kept beside the build, served to those who may read /metrics. */
  SERVE_SOURCE_MAPS: z
    .enum(['true', 'false', '1', '0'], { error: 'true or false' })
    .default('false')
    .transform((v) => v === 'true' || v === '1'),
  // WhatsApp Cloud API (all of token, phone number id, app secret, verify token and the three templates, or none).
  WHATSAPP_TOKEN: z.string().min(1).optional(),
  WHATSAPP_PHONE_NUMBER_ID: z
    .string()
    .regex(/^\d{5,30}$/, { error: "the WhatsApp Business phone number's id (digits, from Meta's WhatsApp → API setup)" })
    .optional(),
  WHATSAPP_APP_SECRET: z.string().min(8, { error: "the Meta app's secret (App settings → Basic), which signs the webhooks" }).optional(),
  WHATSAPP_VERIFY_TOKEN: z.string().min(8, { error: 'a random string of at least 8 characters, also typed in the webhook setup' }).optional(),
  WHATSAPP_API_URL: httpUrl("the Graph API's base, with its version").default('https://graph.facebook.com/v21.0'),
  WHATSAPP_TEMPLATE_BILL: z
    .string()
    .regex(/^[a-z0-9_]{1,512}$/, { error: 'an approved template name (lower case, digits, _)' })
    .optional(),
  WHATSAPP_TEMPLATE_REMINDER: z
    .string()
    .regex(/^[a-z0-9_]{1,512}$/, { error: 'an approved template name (lower case, digits, _)' })
    .optional(),
  WHATSAPP_TEMPLATE_DEADLINE: z
    .string()
    .regex(/^[a-z0-9_]{1,512}$/, { error: 'an approved template name (lower case, digits, _)' })
    .optional(),
  WHATSAPP_TEMPLATE_LANGUAGE: z
    .string()
    .regex(/^[a-z]{2,3}(_[A-Z]{2})?$/, { error: 'a template language code such as es_MX' })
    .default('es_MX'),
  // Web Push (VAPID): both keys or neither; neither: made on first start and kept in the database (app_secrets).
  VAPID_PUBLIC_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{86,88}={0,2}$/, { error: "the VAPID public key in base64url (65 bytes, as web-push's generate-vapid-keys prints it)" })
    .optional(),
  VAPID_PRIVATE_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{42,44}={0,2}$/, { error: "the VAPID private key in base64url (32 bytes, as web-push's generate-vapid-keys prints it)" })
    .optional(),
  VAPID_SUBJECT: z
    .string()
    .regex(/^(mailto:[^\s@]+@[^\s@]+|https:\/\/\S+)$/, {
      error: 'a mailto: address or an https: URL push services may contact, such as mailto:soporte@example.com',
    })
    .optional(),
  /** Push services' origins accepted even on plain http or a private address (tests, a push service on the local network). */
  PUSH_ALLOWED_ORIGINS: z
    .string()
    .transform((s) => s.split(/[,\s]+/).filter(Boolean))
    .pipe(
      z.array(z.url({ protocol: /^https?$/, error: 'a comma-separated list of origins such as http://127.0.0.1:8090' }).transform((u) => new URL(u).origin)),
    )
    .optional(),
  /** Pushes a second each instance sends at most: a show's alerts spread over seconds, not a burst that its bids would meet. */
  PUSH_RATE: z.coerce
    .number({ error: 'a number of pushes a second' })
    .int({ error: 'a whole number of pushes a second' })
    .min(1, { error: 'a number of pushes a second between 1 and 100000' })
    .max(100_000, { error: 'a number of pushes a second between 1 and 100000' })
    .default(600),
  /** A replay's height in pixels (its width follows the show's shape). */
  REPLAY_HEIGHT: z.coerce
    .number({ error: 'a height in pixels: 360, 480, 540, 720 or 1080' })
    .refine((n) => [360, 480, 540, 720, 1080].includes(n), { error: 'a height in pixels: 360, 480, 540, 720 or 1080' })
    .default(720),
  /** Days a show's replay is kept once made. */
  REPLAY_RETENTION_DAYS: z.coerce
    .number({ error: 'a number of days between 1 and 3650' })
    .int({ error: 'a whole number of days between 1 and 3650' })
    .min(1, { error: 'a number of days between 1 and 3650' })
    .max(3650, { error: 'a number of days between 1 and 3650' })
    .default(90),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], { error: 'a pino level: fatal, error, warn, info, debug, trace or silent' })
    .default('info'),
});

export interface Config {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  timeouts: TimeoutsConfig;
  /** SHUTDOWN_DRAIN_SECONDS: on SIGTERM, how long /readyz answers 503 while everything else is still served, before shutting down. */
  shutdownDrainMs: number;
  publicUrl: URL;
  dataDir: string;
  database: { kind: 'embedded'; dir: string | null } | { kind: 'postgresql'; url: string };
  redisUrl: string | null;
  sessionSecret: string;
  sessionDays: number;
  adminEmails: string[];
  signIn: { kind: 'google'; issuer: string; clientId: string; clientSecret: string } | { kind: 'development' };
  payments: PaymentsConfig;
  video: VideoConfig;
  viewers: ViewerLimits;
  storage: StorageConfig;
  /** CHAT_LINES_PER_ADDRESS: chat lines one client address may write in one show in 10 seconds. */
  chatLinesPerAddress: number;
  trustProxy: boolean;
  ops: OpsConfig;
  logLevel: string;
  /** The WhatsApp Cloud API, or null: reminders then go out by hand through wa.me links. */
  whatsapp: WhatsAppConfig | null;
  push: PushConfig;
  replays: ReplaysConfig;
}

/** Replays: where recordings wait to be made into a replay, its height and how long it is kept. */
export interface ReplaysConfig {
  /** DATA_DIR/recordings: the raw segments a show's recorder writes, deleted once its replay is made. */
  recordingsDir: string;
  /** DATA_DIR/replays-work: the MP4s and clips being made, before they go to storage. */
  workDir: string;
  /** REPLAY_HEIGHT (720). */
  height: number;
  /** REPLAY_RETENTION_DAYS (90). */
  retentionDays: number;
  /** JANUS_REC_DIR (DATA_DIR/recordings/janus): Janus's `.mjr` files, one folder per show. */
  janusRecDir: string;
}

/** Web Push: the VAPID identity and which push services may be reached on a private address. */
export interface PushConfig {
  /** VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY, or null: the pair made on first start and kept in app_secrets ('vapid'). */
  vapidKeys: { publicKey: string; privateKey: string } | null;
  /** VAPID_SUBJECT: whom push services may contact; default PUBLIC_URL when https, else a mailto: address. */
  subject: string;
  /** PUSH_ALLOWED_ORIGINS: origins accepted even on http: or a private address, as `URL.origin` spells them. */
  allowedOrigins: string[];
  /** PUSH_RATE: pushes a second this instance sends at most (600: a show's 10,000 followers in about 17 s). */
  rate: number;
}

/** Both VAPID keys or neither: one alone would sign with a key browsers never subscribed with. */
function pushConfig(e: z.output<typeof ZEnv>, publicUrl: URL): PushConfig {
  if (Boolean(e.VAPID_PUBLIC_KEY) !== Boolean(e.VAPID_PRIVATE_KEY)) {
    throw new ConfigError(
      'Invalid configuration:\n  VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY must be set together (or neither: the server then makes a pair on first start and keeps it in the database)',
    );
  }
  return {
    vapidKeys: e.VAPID_PUBLIC_KEY && e.VAPID_PRIVATE_KEY ? { publicKey: e.VAPID_PUBLIC_KEY, privateKey: e.VAPID_PRIVATE_KEY } : null,
    subject: e.VAPID_SUBJECT ?? (publicUrl.protocol === 'https:' && publicUrl.hostname !== 'localhost' ? publicUrl.origin : 'mailto:soporte@martillo.mx'),
    allowedOrigins: e.PUSH_ALLOWED_ORIGINS ?? [],
    rate: e.PUSH_RATE,
  };
}

/**
 * Who may read what only the operators need (/metrics, /api/openapi.json and, when served, the
 * source maps): this machine, the addresses in METRICS_ALLOW, and whoever sends METRICS_TOKEN.
 */
export interface OpsConfig {
  /** METRICS_ALLOW: addresses and CIDR ranges, as written ('10.0.0.0/8', '2001:db8::/32'). */
  allow: string[];
  /** METRICS_TOKEN, or null: then only addresses are let in. */
  token: string | null;
  /** SERVE_SOURCE_MAPS: the web app's source maps at /assets/<file>.map, to the same people. */
  serveSourceMaps: boolean;
}

export interface WhatsAppConfig {
  token: string;
  phoneNumberId: string;
  appSecret: string;
  verifyToken: string;
  apiUrl: string;
  /** Approved utility templates: the show's bill, the reminder 24 h after the link, the one before the deadline. */
  templates: { bill: string; reminder: string; deadline: string };
  language: string;
}

const WHATSAPP_REQUIRED = [
  'WHATSAPP_TOKEN',
  'WHATSAPP_PHONE_NUMBER_ID',
  'WHATSAPP_APP_SECRET',
  'WHATSAPP_VERIFY_TOKEN',
  'WHATSAPP_TEMPLATE_BILL',
  'WHATSAPP_TEMPLATE_REMINDER',
  'WHATSAPP_TEMPLATE_DEADLINE',
] as const;

/** All of the WhatsApp variables or none: a half-configured Cloud API would silently send nothing. */
function whatsappConfig(e: z.output<typeof ZEnv>): WhatsAppConfig | null {
  const set = WHATSAPP_REQUIRED.filter((k) => e[k] !== undefined);
  if (set.length === 0) return null;
  if (set.length < WHATSAPP_REQUIRED.length) {
    const missing = WHATSAPP_REQUIRED.filter((k) => e[k] === undefined);
    throw new ConfigError(
      `Invalid configuration:\n  ${missing.join(', ')} must be set too (the WhatsApp Cloud API needs all of ${WHATSAPP_REQUIRED.join(', ')}, or none for wa.me links)`,
    );
  }
  return {
    token: e.WHATSAPP_TOKEN as string,
    phoneNumberId: e.WHATSAPP_PHONE_NUMBER_ID as string,
    appSecret: e.WHATSAPP_APP_SECRET as string,
    verifyToken: e.WHATSAPP_VERIFY_TOKEN as string,
    apiUrl: e.WHATSAPP_API_URL.replace(/\/+$/, ''),
    templates: { bill: e.WHATSAPP_TEMPLATE_BILL as string, reminder: e.WHATSAPP_TEMPLATE_REMINDER as string, deadline: e.WHATSAPP_TEMPLATE_DEADLINE as string },
    language: e.WHATSAPP_TEMPLATE_LANGUAGE,
  };
}

/** How long a client may take to send a request; a slow one is cut with 408 (milliseconds). */
/** Where uploaded images live: DATA_DIR/uploads, or a bucket of S3 or an S3-compatible service. */
export type StorageConfig =
  | { kind: 'local' }
  | {
      kind: 's3';
      bucket: string;
      region: string;
      /** null: AWS S3 itself. */
      endpoint: string | null;
      /** null: the AWS SDK's default chain (AWS_* variables, ~/.aws, an instance or task role). */
      credentials: { accessKeyId: string; secretAccessKey: string } | null;
      forcePathStyle: boolean;
      /** The address objects are read from, without a trailing slash: `<publicUrl>/<key>`. */
      publicUrl: string;
    };

function storageConfig(e: z.output<typeof ZEnv>): StorageConfig {
  if (e.STORAGE === 'local') return { kind: 'local' };
  const bucket = e.S3_BUCKET as string;
  const endpoint = e.S3_ENDPOINT ? e.S3_ENDPOINT.replace(/\/+$/, '') : null;
  // Self-hosted and test servers rarely have a DNS name per bucket; AWS itself prefers virtual hosts.
  const forcePathStyle = e.S3_FORCE_PATH_STYLE ?? endpoint !== null;
  return {
    kind: 's3',
    bucket,
    region: e.S3_REGION,
    endpoint,
    credentials: e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY ? { accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY } : null,
    forcePathStyle,
    publicUrl: (e.S3_PUBLIC_URL ?? defaultBucketUrl({ bucket, region: e.S3_REGION, endpoint, forcePathStyle })).replace(/\/+$/, ''),
  };
}

/** The bucket's own address, as the SDK would reach it: a public bucket serves its objects there. */
function defaultBucketUrl(o: { bucket: string; region: string; endpoint: string | null; forcePathStyle: boolean }): string {
  if (!o.endpoint) {
    return o.forcePathStyle ? `https://s3.${o.region}.amazonaws.com/${o.bucket}` : `https://${o.bucket}.s3.${o.region}.amazonaws.com`;
  }
  if (o.forcePathStyle) return `${o.endpoint}/${o.bucket}`;
  const url = new URL(o.endpoint);
  return `${url.protocol}//${o.bucket}.${url.host}${url.pathname.replace(/\/+$/, '')}`;
}

export interface TimeoutsConfig {
  /** Headers and body of any request but an upload. */
  requestMs: number;
  /** Headers and body of an image upload: 10 MB from a slow phone (~0.5 Mbit/s) fits in the default. */
  uploadMs: number;
}

export interface PaymentsConfig {
  provider: 'sandbox' | 'mercadopago';
  /** Production running the sandbox on purpose (PAYMENTS_SANDBOX_PUBLIC_DEMO=true). */
  isPublicDemo: boolean;
  /** How long a payment link works (Mercado Pago's date_of_expiration; the sandbox's too). */
  linkHours: number;
  /** The platform's share of a connected seller's checkout, in percent. */
  marketplaceFeePercent: number;
  /** Encrypts provider tokens at rest (AES-256-GCM): TOKEN_ENCRYPTION_KEY, else derived from the session secret. */
  tokenKey: string | null;
  mercadopago: Pick<MercadoPagoOptions, 'accessToken' | 'clientId' | 'clientSecret' | 'webhookSecret' | 'apiUrl' | 'authUrl'> | null;
}

/** Live video: which provider carries it (VIDEO.md has the measurements behind the three providers). */
export interface VideoConfig {
  provider: VideoProviderName;
  /** STUN/TURN for every WebRTC peer (ICE_SERVERS); none by default. */
  iceServers: IceServer[];
  embedded: { publicIp: string | null; bindAddress: string | null; portRange: [number, number] | null };
  /** Set when provider is janus. */
  janus: {
    url: string;
    publicUrl: string;
    adminKey: string | null;
    /** JANUS_EDGES with their public addresses: viewers watch through them; none, viewers watch the origin. */
    edges: { url: string; publicUrl: string }[];
    /** JANUS_EDGE_MAX_VIEWERS. */
    edgeMaxViewers: number;
  } | null;
  /** Set when provider is agora and both keys are; otherwise the Hub says broadcasting is disabled. */
  agora: { appId: string; appCertificate: string } | null;
}

/** What one address, one socket and the embedded SFU may hold of the live audience. */
export interface ViewerLimits {
  /** VIEWERS_PER_ADDRESS: SFU viewer slots one client address may hold, and sockets it counts for in the viewer count. */
  perAddress: number;
  /** VIDEO_MAX_VIEWERS: viewers on the embedded SFU at once. */
  sfuMax: number;
  /** VIDEO_CONNECT_TIMEOUT_SECONDS: a slot whose peer has not connected by then is freed. */
  connectTimeoutMs: number;
}

/** JANUS_EDGES, JANUS_EDGES_PUBLIC_URLS: ws:// or wss:// addresses, comma-separated, none twice. */
function parseWebSocketList(value: string, ctx: z.RefinementCtx): string[] {
  const items = value
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== '');
  const bad = items.filter((v) => !z.url({ protocol: /^wss?$/ }).safeParse(v).success);
  if (items.length === 0 || bad.length > 0) {
    ctx.addIssue({
      code: 'custom',
      message: `comma-separated WebSocket addresses, such as ws://10.0.0.2:8188,ws://10.0.0.3:8188${bad.length ? ` (not one: ${bad.join(', ')})` : ''}`,
    });
    return z.NEVER;
  }
  if (new Set(items).size !== items.length) {
    ctx.addIssue({ code: 'custom', message: 'an edge is listed twice' });
    return z.NEVER;
  }
  return items;
}

/** ICE_SERVERS: a JSON array of RTCIceServer, or a comma-separated list of stun:/turn:/turns: URLs. */
function parseIceServers(value: string, ctx: z.RefinementCtx): IceServer[] {
  const url = z.string().regex(/^(stun|turns?):[^\s,]+$/);
  const ZServers = z.array(
    z.object({ urls: z.union([url, z.array(url).min(1)]), username: z.string().optional(), credential: z.string().optional() }).strict(),
  );
  let candidate: unknown;
  try {
    candidate = value.startsWith('[') ? JSON.parse(value) : value.split(',').map((u) => ({ urls: u.trim() }));
  } catch {
    candidate = null;
  }
  const parsed = ZServers.safeParse(candidate);
  if (parsed.success) return parsed.data.map((s) => ({ ...s }));
  ctx.addIssue({
    code: 'custom',
    message: 'a comma-separated list of stun:/turn: URLs, or a JSON array such as [{"urls":"turn:turn.example.com:3478","username":"u","credential":"p"}]',
  });
  return z.NEVER;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Empty strings count as unset, so `FOO=` in an .env file means "use the default". */
function cleanEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined && v.trim() !== '') out[k] = v.trim();
  return out;
}

/** Reads the environment into a typed config, or throws one ConfigError naming each bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, opts: { persistSecret?: boolean } = {}): Config {
  const parsed = ZEnv.safeParse(cleanEnv(env));
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => {
      const name = String(i.path[0] ?? 'environment');
      const got = env[name];
      return `  ${name} must be ${i.message}${got !== undefined ? ` (got "${got}")` : ''}`;
    });
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  const hasGoogle = Boolean(e.GOOGLE_CLIENT_ID || e.GOOGLE_CLIENT_SECRET);
  if (hasGoogle && !(e.GOOGLE_CLIENT_ID && e.GOOGLE_CLIENT_SECRET)) {
    const missing = e.GOOGLE_CLIENT_ID ? 'GOOGLE_CLIENT_SECRET' : 'GOOGLE_CLIENT_ID';
    throw new ConfigError(`Invalid configuration:\n  ${missing} must be set too (Google sign-in needs both GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET)`);
  }
  if (e.NODE_ENV === 'production') {
    const missing: string[] = [];
    if (!hasGoogle) missing.push('  GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET must be set (production requires Google sign-in)');
    if (!e.SESSION_SECRET) missing.push('  SESSION_SECRET must be a random string of at least 32 characters (required in production)');
    if (!e.PUBLIC_URL) missing.push('  PUBLIC_URL must be the public address of this site (required in production)');
    // The sandbox lets anyone holding a payment link mark it paid: production needs the real provider or an explicit demo.
    if (e.PAYMENTS_PROVIDER !== 'mercadopago' && !e.PAYMENTS_SANDBOX_PUBLIC_DEMO)
      missing.push(
        '  PAYMENTS_PROVIDER must be mercadopago in production (the sandbox lets anyone with a payment link mark it paid); a public demo may set PAYMENTS_SANDBOX_PUBLIC_DEMO=true to run the sandbox anyway',
      );
    if (missing.length) throw new ConfigError(`Invalid configuration:\n${missing.join('\n')}`);
  }
  if (e.PAYMENTS_PROVIDER === 'mercadopago') {
    const missing: string[] = [];
    if (!e.MP_ACCESS_TOKEN) missing.push("  MP_ACCESS_TOKEN must be set (PAYMENTS_PROVIDER=mercadopago needs the platform's access token)");
    if (!e.MP_WEBHOOK_SECRET) missing.push('  MP_WEBHOOK_SECRET must be set (PAYMENTS_PROVIDER=mercadopago verifies every webhook with it)');
    if (Boolean(e.MP_CLIENT_ID) !== Boolean(e.MP_CLIENT_SECRET)) missing.push('  MP_CLIENT_ID and MP_CLIENT_SECRET must be set together (seller connection)');
    if (missing.length) throw new ConfigError(`Invalid configuration:\n${missing.join('\n')}`);
  }
  {
    const problems: string[] = [];
    // One SFU process serves one instance: viewers on another instance could not reach its sessions.
    if (e.VIDEO_PROVIDER === 'embedded' && e.REDIS_URL)
      problems.push(
        '  VIDEO_PROVIDER must be janus or agora when REDIS_URL is set: the embedded SFU serves one server instance, and several instances share Janus (JANUS_URL) or Agora (AGORA_APP_ID, AGORA_APP_CERTIFICATE)',
      );
    if (e.VIDEO_PROVIDER === 'janus' && !e.JANUS_URL)
      problems.push("  JANUS_URL must be set (VIDEO_PROVIDER=janus needs Janus's WebSocket address, such as ws://127.0.0.1:8188)");
    if (e.JANUS_EDGES && e.VIDEO_PROVIDER !== 'janus') problems.push('  JANUS_EDGES needs VIDEO_PROVIDER=janus (the edges take their video from JANUS_URL)');
    if (e.JANUS_EDGES_PUBLIC_URLS && !e.JANUS_EDGES) problems.push('  JANUS_EDGES_PUBLIC_URLS needs JANUS_EDGES (the same edges as this server reaches them)');
    if (e.JANUS_EDGES && e.JANUS_EDGES_PUBLIC_URLS && e.JANUS_EDGES.length !== e.JANUS_EDGES_PUBLIC_URLS.length)
      problems.push(
        `  JANUS_EDGES_PUBLIC_URLS must list as many edges as JANUS_EDGES, in the same order (${e.JANUS_EDGES_PUBLIC_URLS.length} against ${e.JANUS_EDGES.length})`,
      );
    if (e.JANUS_EDGES && e.JANUS_URL && e.JANUS_EDGES.includes(e.JANUS_URL)) problems.push('  JANUS_EDGES must not list the origin (JANUS_URL)');
    if (Boolean(e.AGORA_APP_ID) !== Boolean(e.AGORA_APP_CERTIFICATE)) problems.push('  AGORA_APP_ID and AGORA_APP_CERTIFICATE must be set together');
    if (problems.length) throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
  }
  {
    const problems: string[] = [];
    if (e.STORAGE === 's3' && !e.S3_BUCKET) problems.push('  S3_BUCKET must be set (STORAGE=s3 stores images in that bucket)');
    // A bucket named but not used would quietly keep images on this machine's disk.
    if (e.STORAGE !== 's3' && e.S3_BUCKET)
      problems.push('  STORAGE must be s3 when S3_BUCKET is set (or leave S3_BUCKET empty to keep images in DATA_DIR/uploads)');
    if (Boolean(e.S3_ACCESS_KEY_ID) !== Boolean(e.S3_SECRET_ACCESS_KEY))
      problems.push("  S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together (or neither, for the AWS SDK's own credentials)");
    if (problems.length) throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
  }
  const whatsapp = whatsappConfig(e);
  const publicUrl = new URL(e.PUBLIC_URL ?? `http://localhost:${e.PORT}`);
  const push = pushConfig(e, publicUrl);
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    // Development answers on this machine only (a LAN neighbour could use its sign-in); production
    // usually runs in a container, whose port is reachable only through 0.0.0.0.
    host: e.HOST ?? (e.NODE_ENV === 'production' ? '0.0.0.0' : '127.0.0.1'),
    timeouts: { requestMs: e.REQUEST_TIMEOUT_SECONDS * 1000, uploadMs: Math.max(e.UPLOAD_TIMEOUT_SECONDS, e.REQUEST_TIMEOUT_SECONDS) * 1000 },
    shutdownDrainMs: Math.round(e.SHUTDOWN_DRAIN_SECONDS * 1000),
    publicUrl,
    dataDir,
    replays: {
      recordingsDir: path.join(dataDir, 'recordings'),
      workDir: path.join(dataDir, 'replays-work'),
      height: e.REPLAY_HEIGHT,
      retentionDays: e.REPLAY_RETENTION_DAYS,
      janusRecDir: path.resolve(e.JANUS_REC_DIR ?? path.join(dataDir, 'recordings', 'janus')),
    },
    database: e.DATABASE_URL ? { kind: 'postgresql', url: e.DATABASE_URL } : { kind: 'embedded', dir: path.join(dataDir, 'db') },
    redisUrl: e.REDIS_URL ?? null,
    sessionSecret: e.SESSION_SECRET ?? devSecret(dataDir, opts.persistSecret ?? true),
    sessionDays: e.SESSION_DAYS,
    adminEmails: e.ADMIN_EMAILS,
    signIn: hasGoogle
      ? { kind: 'google', issuer: e.OIDC_ISSUER, clientId: e.GOOGLE_CLIENT_ID as string, clientSecret: e.GOOGLE_CLIENT_SECRET as string }
      : { kind: 'development' },
    payments: {
      provider: e.PAYMENTS_PROVIDER,
      isPublicDemo: e.NODE_ENV === 'production' && e.PAYMENTS_PROVIDER === 'sandbox' && e.PAYMENTS_SANDBOX_PUBLIC_DEMO,
      linkHours: e.PAYMENT_LINK_HOURS,
      marketplaceFeePercent: e.MP_MARKETPLACE_FEE_PERCENT,
      tokenKey: e.TOKEN_ENCRYPTION_KEY ?? null,
      mercadopago:
        e.PAYMENTS_PROVIDER === 'mercadopago'
          ? {
              accessToken: e.MP_ACCESS_TOKEN as string,
              clientId: e.MP_CLIENT_ID ?? null,
              clientSecret: e.MP_CLIENT_SECRET ?? null,
              webhookSecret: e.MP_WEBHOOK_SECRET as string,
              apiUrl: e.MP_API_URL.replace(/\/+$/, ''),
              authUrl: e.MP_AUTH_URL.replace(/\/+$/, ''),
            }
          : null,
    },
    video: {
      provider: e.VIDEO_PROVIDER,
      iceServers: e.ICE_SERVERS ?? [],
      embedded: { publicIp: e.VIDEO_PUBLIC_IP ?? null, bindAddress: e.VIDEO_BIND_ADDRESS ?? null, portRange: e.VIDEO_PORT_RANGE ?? null },
      janus:
        e.VIDEO_PROVIDER === 'janus' && e.JANUS_URL
          ? {
              url: e.JANUS_URL,
              publicUrl: e.JANUS_PUBLIC_URL ?? e.JANUS_URL,
              adminKey: e.JANUS_ADMIN_KEY ?? null,
              edges: (e.JANUS_EDGES ?? []).map((url, i) => ({ url, publicUrl: e.JANUS_EDGES_PUBLIC_URLS?.[i] ?? url })),
              edgeMaxViewers: e.JANUS_EDGE_MAX_VIEWERS,
            }
          : null,
      agora:
        e.VIDEO_PROVIDER === 'agora' && e.AGORA_APP_ID && e.AGORA_APP_CERTIFICATE ? { appId: e.AGORA_APP_ID, appCertificate: e.AGORA_APP_CERTIFICATE } : null,
    },
    viewers: { perAddress: e.VIEWERS_PER_ADDRESS, sfuMax: e.VIDEO_MAX_VIEWERS, connectTimeoutMs: Math.round(e.VIDEO_CONNECT_TIMEOUT_SECONDS * 1000) },
    storage: storageConfig(e),
    chatLinesPerAddress: e.CHAT_LINES_PER_ADDRESS,
    trustProxy: e.TRUST_PROXY,
    ops: { allow: e.METRICS_ALLOW, token: e.METRICS_TOKEN ?? null, serveSourceMaps: e.SERVE_SOURCE_MAPS },
    logLevel: e.LOG_LEVEL,
    whatsapp,
    push,
  };
}

/** Outside production a secret is made once and kept in DATA_DIR, so restarts keep people signed in. */
function devSecret(dataDir: string, persist: boolean): string {
  if (!persist) return randomBytes(32).toString('hex');
  const file = path.join(dataDir, 'session-secret');
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    mkdirSync(dataDir, { recursive: true });
    const secret = randomBytes(32).toString('hex');
    writeFileSync(file, secret, { mode: 0o600 });
    return secret;
  }
}
