import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/server/config.js';

const load = (env: Record<string, string>) => loadConfig(env, { persistSecret: false });
const message = (env: Record<string, string>) => {
  try {
    load(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error('expected a ConfigError');
};

/** Production's required variables, and Mercado Pago's. */
const PRODUCTION = {
  NODE_ENV: 'production',
  GOOGLE_CLIENT_ID: 'i',
  GOOGLE_CLIENT_SECRET: 's',
  SESSION_SECRET: 'x'.repeat(40),
  PUBLIC_URL: 'https://martillo.mx',
};
const MERCADO_PAGO = { PAYMENTS_PROVIDER: 'mercadopago', MP_ACCESS_TOKEN: 'APP_USR-1', MP_WEBHOOK_SECRET: 'secreto-123' };

describe('configuration', () => {
  it('runs with nothing set: port 3000, ./data, PGlite, development sign-in, sandbox, embedded video', () => {
    const c = load({});
    expect(c.port).toBe(3000);
    expect(c.publicUrl.href).toBe('http://localhost:3000/');
    expect(c.dataDir).toMatch(/\/data$/);
    expect(c.database).toEqual({ kind: 'embedded', dir: `${c.dataDir}/db` });
    expect(c.signIn).toEqual({ kind: 'development' });
    expect(c.payments).toMatchObject({ provider: 'sandbox', linkHours: 72, marketplaceFeePercent: 0, tokenKey: null, mercadopago: null });
    expect(c.video).toEqual({
      provider: 'embedded',
      iceServers: [],
      embedded: { publicIp: null, bindAddress: null, portRange: null },
      janus: null,
      agora: null,
    });
    expect(c.sessionSecret).toHaveLength(64);
    expect(c.storage).toEqual({ kind: 'local' });
  });

  it('switches to PostgreSQL and Google when their variables are set', () => {
    const c = load({ DATABASE_URL: 'postgres://u:p@db:5432/martillo', GOOGLE_CLIENT_ID: 'id', GOOGLE_CLIENT_SECRET: 's', ADMIN_EMAILS: 'A@x.mx, b@y.mx' });
    expect(c.database).toEqual({ kind: 'postgresql', url: 'postgres://u:p@db:5432/martillo' });
    expect(c.signIn).toEqual({ kind: 'google', issuer: 'https://accounts.google.com', clientId: 'id', clientSecret: 's' });
    expect(c.adminEmails).toEqual(['a@x.mx', 'b@y.mx']);
  });

  it.each([
    [{ PORT: 'tres mil' }, 'PORT must be a port number'],
    [{ PORT: '70000' }, 'PORT must be a port number between 0 and 65535'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL must be a PostgreSQL URL'],
    [{ PUBLIC_URL: 'martillo.mx' }, 'PUBLIC_URL must be the public address of this site'],
    [{ ADMIN_EMAILS: 'a@b.mx, nadie' }, 'ADMIN_EMAILS must be a comma-separated list of email addresses'],
    [{ PAYMENTS_PROVIDER: 'paypal' }, 'PAYMENTS_PROVIDER must be sandbox or mercadopago'],
    [{ PAYMENTS_PROVIDER: 'mercadopago' }, 'MP_ACCESS_TOKEN must be set'],
    [{ PAYMENTS_PROVIDER: 'mercadopago', MP_ACCESS_TOKEN: 'APP_USR-1' }, 'MP_WEBHOOK_SECRET must be set'],
    [
      { PAYMENTS_PROVIDER: 'mercadopago', MP_ACCESS_TOKEN: 'APP_USR-1', MP_WEBHOOK_SECRET: 'secreto-123', MP_CLIENT_ID: '1' },
      'MP_CLIENT_ID and MP_CLIENT_SECRET must be set together',
    ],
    [{ MP_MARKETPLACE_FEE_PERCENT: '80' }, 'MP_MARKETPLACE_FEE_PERCENT must be a percentage between 0 and 50'],
    [{ TOKEN_ENCRYPTION_KEY: 'corta' }, 'TOKEN_ENCRYPTION_KEY must be 32 random bytes'],
    [{ SESSION_SECRET: 'corto' }, 'SESSION_SECRET must be a random string of at least 32 characters'],
    [{ GOOGLE_CLIENT_ID: 'solo-id' }, 'GOOGLE_CLIENT_SECRET must be set too'],
    [{ NODE_ENV: 'produccion' }, 'NODE_ENV must be one of development, production, test'],
  ])('stops with one message naming the variable: %o', (env, expected) => {
    const text = message(env);
    expect(text).toContain(expected);
    expect(text.split('\n')[0]).toBe('Invalid configuration:');
  });

  it('switches to Mercado Pago when its variables are set', () => {
    const c = load({
      PAYMENTS_PROVIDER: 'mercadopago',
      MP_ACCESS_TOKEN: 'APP_USR-1',
      MP_WEBHOOK_SECRET: 'secreto-123',
      MP_API_URL: 'http://127.0.0.1:9/',
      PAYMENT_LINK_HOURS: '48',
      TOKEN_ENCRYPTION_KEY: 'ab'.repeat(32),
    });
    expect(c.payments).toMatchObject({
      provider: 'mercadopago',
      linkHours: 48,
      tokenKey: 'ab'.repeat(32),
      mercadopago: {
        accessToken: 'APP_USR-1',
        webhookSecret: 'secreto-123',
        apiUrl: 'http://127.0.0.1:9',
        authUrl: 'https://auth.mercadopago.com',
        clientId: null,
      },
    });
  });

  it('requires Google sign-in, a session secret and PUBLIC_URL in production', () => {
    const text = message({ NODE_ENV: 'production' });
    expect(text).toContain('GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET must be set (production requires Google sign-in)');
    expect(text).toContain('SESSION_SECRET');
    expect(text).toContain('PUBLIC_URL');
    const ok = load({ ...PRODUCTION, ...MERCADO_PAGO });
    expect(ok.signIn.kind).toBe('google');
  });

  it('refuses to start production on the sandbox, with one message naming PAYMENTS_PROVIDER and the demo opt-in', () => {
    for (const env of [PRODUCTION, { ...PRODUCTION, PAYMENTS_PROVIDER: 'sandbox' }, { ...PRODUCTION, PAYMENTS_SANDBOX_PUBLIC_DEMO: 'false' }]) {
      const text = message(env);
      expect(text.split('\n')).toEqual([
        'Invalid configuration:',
        '  PAYMENTS_PROVIDER must be mercadopago in production (the sandbox lets anyone with a payment link mark it paid); a public demo may set PAYMENTS_SANDBOX_PUBLIC_DEMO=true to run the sandbox anyway',
      ]);
    }
    expect(load({ ...PRODUCTION, ...MERCADO_PAGO }).payments).toMatchObject({ provider: 'mercadopago', isPublicDemo: false });
  });

  it('runs a public demo on the sandbox in production only when PAYMENTS_SANDBOX_PUBLIC_DEMO says so', () => {
    expect(load({ ...PRODUCTION, PAYMENTS_SANDBOX_PUBLIC_DEMO: 'true' }).payments).toMatchObject({ provider: 'sandbox', isPublicDemo: true });
    expect(load({ PAYMENTS_SANDBOX_PUBLIC_DEMO: 'true' }).payments).toMatchObject({ provider: 'sandbox', isPublicDemo: false });
    expect(message({ ...PRODUCTION, PAYMENTS_SANDBOX_PUBLIC_DEMO: 'si' })).toContain('PAYMENTS_SANDBOX_PUBLIC_DEMO must be true or false');
  });

  it('listens on this machine only in development, on every interface in production, and where HOST says', () => {
    const production = { ...PRODUCTION, ...MERCADO_PAGO };
    expect(load({}).host).toBe('127.0.0.1');
    expect(load({ NODE_ENV: 'development' }).host).toBe('127.0.0.1');
    expect(load({ NODE_ENV: 'test' }).host).toBe('127.0.0.1');
    expect(load({ HOST: '' }).host).toBe('127.0.0.1');
    expect(load(production).host).toBe('0.0.0.0');
    expect(load({ HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
    expect(load({ ...production, HOST: '127.0.0.1' }).host).toBe('127.0.0.1');
  });

  it('times out slow requests after 30 s and slow uploads after 180 s, or as configured', () => {
    expect(load({}).timeouts).toEqual({ requestMs: 30_000, uploadMs: 180_000 });
    expect(load({ REQUEST_TIMEOUT_SECONDS: '10', UPLOAD_TIMEOUT_SECONDS: '60' }).timeouts).toEqual({ requestMs: 10_000, uploadMs: 60_000 });
    // An upload is never given less time than any other request.
    expect(load({ REQUEST_TIMEOUT_SECONDS: '90', UPLOAD_TIMEOUT_SECONDS: '60' }).timeouts).toEqual({ requestMs: 90_000, uploadMs: 90_000 });
    expect(message({ REQUEST_TIMEOUT_SECONDS: '0' })).toContain('REQUEST_TIMEOUT_SECONDS must be');
    expect(message({ UPLOAD_TIMEOUT_SECONDS: 'mucho' })).toContain('UPLOAD_TIMEOUT_SECONDS must be a number of seconds');
  });

  it('drains for no time on SIGTERM unless told, and refuses a drain that is not 0 to 60 seconds', () => {
    expect(load({}).shutdownDrainMs).toBe(0);
    expect(load({ SHUTDOWN_DRAIN_SECONDS: '3' }).shutdownDrainMs).toBe(3_000);
    expect(message({ SHUTDOWN_DRAIN_SECONDS: 'un rato' })).toContain('SHUTDOWN_DRAIN_SECONDS must be a number of seconds');
    expect(message({ SHUTDOWN_DRAIN_SECONDS: '-1' })).toContain('SHUTDOWN_DRAIN_SECONDS must be');
    expect(message({ SHUTDOWN_DRAIN_SECONDS: '120' })).toContain('SHUTDOWN_DRAIN_SECONDS must be a number of seconds between 0 and 60');
  });

  it('sends at most 600 pushes a second per instance unless PUSH_RATE says otherwise, and refuses a rate that is not a whole number from 1', () => {
    expect(load({}).push.rate).toBe(600);
    expect(load({ PUSH_RATE: '2000' }).push.rate).toBe(2000);
    expect(message({ PUSH_RATE: 'rápido' })).toContain('PUSH_RATE must be a number of pushes a second');
    expect(message({ PUSH_RATE: '0' })).toContain('PUSH_RATE must be a number of pushes a second between 1 and 100000');
    expect(message({ PUSH_RATE: '2.5' })).toContain('PUSH_RATE must be a whole number of pushes a second');
  });

  it('makes replays at 720p and keeps them 90 days unless told, under DATA_DIR (Janus writing under it too unless JANUS_REC_DIR says where), and refuses other heights and spans', () => {
    const { replays } = load({ DATA_DIR: '/srv/martillo' });
    expect(replays).toEqual({
      recordingsDir: '/srv/martillo/recordings',
      workDir: '/srv/martillo/replays-work',
      height: 720,
      retentionDays: 90,
      janusRecDir: '/srv/martillo/recordings/janus',
    });
    expect(load({ DATA_DIR: '/srv/martillo', JANUS_REC_DIR: '/mnt/janus/grabaciones' }).replays.janusRecDir).toBe('/mnt/janus/grabaciones');
    expect(load({ REPLAY_HEIGHT: '480', REPLAY_RETENTION_DAYS: '30' }).replays).toMatchObject({ height: 480, retentionDays: 30 });
    expect(message({ REPLAY_HEIGHT: '721' })).toContain('REPLAY_HEIGHT must be a height in pixels: 360, 480, 540, 720 or 1080');
    expect(message({ REPLAY_RETENTION_DAYS: '0' })).toContain('REPLAY_RETENTION_DAYS must be a number of days between 1 and 3650');
    expect(message({ REPLAY_RETENTION_DAYS: '1.5' })).toContain('REPLAY_RETENTION_DAYS must be a whole number of days between 1 and 3650');
  });

  it('treats an empty variable as unset', () => {
    expect(load({ PORT: '', DATABASE_URL: ' ' }).port).toBe(3000);
  });

  describe('video', () => {
    it('reads the embedded SFU’s addresses, ports and ICE servers', () => {
      const c = load({
        VIDEO_PUBLIC_IP: '203.0.113.7',
        VIDEO_BIND_ADDRESS: '127.0.0.1',
        VIDEO_PORT_RANGE: '20000-20999',
        ICE_SERVERS: 'stun:stun.l.google.com:19302, turn:turn.example.com:3478',
      });
      expect(c.video).toMatchObject({
        provider: 'embedded',
        embedded: { publicIp: '203.0.113.7', bindAddress: '127.0.0.1', portRange: [20000, 20999] },
        iceServers: [{ urls: 'stun:stun.l.google.com:19302' }, { urls: 'turn:turn.example.com:3478' }],
      });
      const json = '[{"urls":["turn:turn.example.com:3478","turns:turn.example.com:5349"],"username":"u","credential":"p"}]';
      expect(load({ ICE_SERVERS: json }).video.iceServers).toEqual([
        { urls: ['turn:turn.example.com:3478', 'turns:turn.example.com:5349'], username: 'u', credential: 'p' },
      ]);
    });

    it('reads Janus and Agora', () => {
      expect(load({ VIDEO_PROVIDER: 'janus', JANUS_URL: 'ws://127.0.0.1:8188' }).video.janus).toEqual({
        url: 'ws://127.0.0.1:8188',
        publicUrl: 'ws://127.0.0.1:8188',
        adminKey: null,
        edges: [],
        edgeMaxViewers: 1000,
      });
      expect(load({ VIDEO_PROVIDER: 'janus', JANUS_URL: 'ws://10.0.0.5:8188', JANUS_PUBLIC_URL: 'wss://janus.martillo.mx' }).video.janus?.publicUrl).toBe(
        'wss://janus.martillo.mx',
      );
      const keys = { AGORA_APP_ID: 'a'.repeat(32), AGORA_APP_CERTIFICATE: 'b'.repeat(32) };
      expect(load({ VIDEO_PROVIDER: 'agora', ...keys }).video.agora).toEqual({ appId: 'a'.repeat(32), appCertificate: 'b'.repeat(32) });
      // Agora without keys runs, and the Hub says broadcasting is disabled.
      expect(load({ VIDEO_PROVIDER: 'agora' }).video.agora).toBeNull();
      // Several instances share Janus or Agora.
      expect(load({ VIDEO_PROVIDER: 'agora', REDIS_URL: 'redis://127.0.0.1:6379' }).video.provider).toBe('agora');
    });

    describe('Janus edges', () => {
      const base = { VIDEO_PROVIDER: 'janus', JANUS_URL: 'ws://10.0.0.1:8188' };

      it('reads the edges with their public addresses, in order, and the origin stays JANUS_URL', () => {
        const config = load({
          ...base,
          JANUS_EDGES: 'ws://10.0.0.2:8188, ws://10.0.0.3:8188',
          JANUS_EDGES_PUBLIC_URLS: 'wss://e1.example.com,wss://e2.example.com',
        });
        expect(config.video.janus?.url).toBe('ws://10.0.0.1:8188');
        expect(config.video.janus?.edges).toEqual([
          { url: 'ws://10.0.0.2:8188', publicUrl: 'wss://e1.example.com' },
          { url: 'ws://10.0.0.3:8188', publicUrl: 'wss://e2.example.com' },
        ]);
        expect(config.video.janus?.edgeMaxViewers).toBe(1000);
      });

      it('takes the public addresses from JANUS_EDGES when none are given, and none without edges', () => {
        expect(load({ ...base, JANUS_EDGES: 'ws://10.0.0.2:8188' }).video.janus?.edges).toEqual([
          { url: 'ws://10.0.0.2:8188', publicUrl: 'ws://10.0.0.2:8188' },
        ]);
        expect(load(base).video.janus?.edges).toEqual([]);
      });

      it.each([
        [{ JANUS_EDGES: 'http://10.0.0.2:8188' }, /JANUS_EDGES.*comma-separated WebSocket addresses/s],
        [{ JANUS_EDGES: 'ws://10.0.0.2:8188,ws://10.0.0.2:8188' }, /listed twice/],
        [
          { JANUS_EDGES: 'ws://10.0.0.2:8188', JANUS_EDGES_PUBLIC_URLS: 'wss://a.example.com,wss://b.example.com' },
          /as many edges as JANUS_EDGES.*2 against 1/,
        ],
        [{ JANUS_EDGES_PUBLIC_URLS: 'wss://a.example.com' }, /JANUS_EDGES_PUBLIC_URLS needs JANUS_EDGES/],
        [{ JANUS_EDGES: 'ws://10.0.0.1:8188' }, /must not list the origin/],
        [{ VIDEO_PROVIDER: 'embedded', JANUS_EDGES: 'ws://10.0.0.2:8188' }, /JANUS_EDGES needs VIDEO_PROVIDER=janus/],
        [{ JANUS_EDGES: 'ws://10.0.0.2:8188', JANUS_EDGE_MAX_VIEWERS: '0' }, /JANUS_EDGE_MAX_VIEWERS/],
      ])('refuses %o with a message that says what is wrong', (env, message) => {
        expect(() => load({ ...base, ...env })).toThrow(message);
      });
    });

    it.each([
      [{ VIDEO_PROVIDER: 'p2p' }, 'VIDEO_PROVIDER must be embedded, janus or agora'],
      [{ REDIS_URL: 'redis://127.0.0.1:6379' }, 'VIDEO_PROVIDER must be janus or agora when REDIS_URL is set'],
      [{ VIDEO_PROVIDER: 'janus' }, 'JANUS_URL must be set'],
      [{ VIDEO_PROVIDER: 'janus', JANUS_URL: 'http://127.0.0.1:8088' }, "JANUS_URL must be Janus's WebSocket address"],
      [{ AGORA_APP_ID: 'a'.repeat(32) }, 'AGORA_APP_ID and AGORA_APP_CERTIFICATE must be set together'],
      [{ AGORA_APP_ID: 'no-es-hex' }, "AGORA_APP_ID must be Agora's App ID"],
      [{ ICE_SERVERS: 'http://stun.example.com' }, 'ICE_SERVERS must be a comma-separated list of stun:/turn: URLs'],
      [{ ICE_SERVERS: '[{"urls":1}]' }, 'ICE_SERVERS must be a comma-separated list of stun:/turn: URLs'],
      [{ VIDEO_PORT_RANGE: '30000-20000' }, 'VIDEO_PORT_RANGE must be a UDP port range within 1024-65535'],
      [{ VIDEO_PUBLIC_IP: 'mi-servidor' }, 'VIDEO_PUBLIC_IP must be an IP address'],
    ])('stops with a message naming the video variable: %o', (env, expected) => {
      expect(message(env)).toContain(expected);
    });
  });
});

describe('viewer limits', () => {
  it('defaults to 20 per address, 2000 on the embedded SFU and 10 s to connect, and reads each', () => {
    expect(load({}).viewers).toEqual({ perAddress: 20, sfuMax: 2000, connectTimeoutMs: 10_000 });
    expect(load({ VIEWERS_PER_ADDRESS: '50', VIDEO_MAX_VIEWERS: '600', VIDEO_CONNECT_TIMEOUT_SECONDS: '2.5' }).viewers).toEqual({
      perAddress: 50,
      sfuMax: 600,
      connectTimeoutMs: 2500,
    });
  });

  it.each([
    [{ VIEWERS_PER_ADDRESS: '0' }, 'VIEWERS_PER_ADDRESS must be a whole number of viewers'],
    [{ VIEWERS_PER_ADDRESS: 'muchos' }, 'VIEWERS_PER_ADDRESS must be a whole number of viewers'],
    [{ VIDEO_MAX_VIEWERS: '1.5' }, 'VIDEO_MAX_VIEWERS must be'],
    [{ VIDEO_CONNECT_TIMEOUT_SECONDS: '0' }, 'VIDEO_CONNECT_TIMEOUT_SECONDS must be'],
    [{ VIDEO_CONNECT_TIMEOUT_SECONDS: '600' }, 'VIDEO_CONNECT_TIMEOUT_SECONDS must be a number of seconds between 0.1 and 120'],
  ])('stops with a message naming the variable: %o', (env, expected) => {
    expect(message(env)).toContain(expected);
  });
});

describe('operators-only endpoints', () => {
  it('lets in this machine only, with no token and no source maps served, unless told', () => {
    expect(load({}).ops).toEqual({ allow: [], token: null, serveSourceMaps: false });
    const token = 'a'.repeat(32);
    expect(load({ METRICS_ALLOW: '10.0.0.0/8, 192.0.2.7,2001:db8::/32', METRICS_TOKEN: token, SERVE_SOURCE_MAPS: 'true' }).ops).toEqual({
      allow: ['10.0.0.0/8', '192.0.2.7', '2001:db8::/32'],
      token,
      serveSourceMaps: true,
    });
  });

  it.each([
    [{ METRICS_ALLOW: 'oficina' }, 'METRICS_ALLOW must be a comma-separated list of IP addresses or CIDR ranges'],
    [{ METRICS_ALLOW: '10.0.0.0/33' }, 'METRICS_ALLOW must be a comma-separated list of IP addresses or CIDR ranges'],
    [{ METRICS_ALLOW: '10.0.0.1,2001:db8::/129' }, 'METRICS_ALLOW must be'],
    [{ METRICS_ALLOW: '10.0.0.0/8/8' }, 'METRICS_ALLOW must be'],
    [{ METRICS_TOKEN: 'corto' }, 'METRICS_TOKEN must be a random string of at least 32 characters'],
    [{ SERVE_SOURCE_MAPS: 'si' }, 'SERVE_SOURCE_MAPS must be true or false'],
  ])('stops with a message naming the variable: %o', (env, expected) => {
    expect(message(env)).toContain(expected);
  });
});

describe('images on S3', () => {
  const BUCKET = { STORAGE: 's3', S3_BUCKET: 'martillo-fotos' };

  it('keeps images on local disk unless STORAGE=s3', () => {
    expect(load({ STORAGE: 'local' }).storage).toEqual({ kind: 'local' });
  });

  it("reads AWS S3 with the SDK's own credentials, and an S3-compatible service with keys and a CDN", () => {
    expect(load(BUCKET).storage).toEqual({
      kind: 's3',
      bucket: 'martillo-fotos',
      region: 'us-east-1',
      endpoint: null,
      credentials: null,
      forcePathStyle: false,
      publicUrl: 'https://martillo-fotos.s3.us-east-1.amazonaws.com',
    });
    expect(
      load({
        ...BUCKET,
        S3_REGION: 'auto',
        S3_ENDPOINT: 'https://abc123.r2.cloudflarestorage.com/',
        S3_ACCESS_KEY_ID: 'id',
        S3_SECRET_ACCESS_KEY: 'secreto',
        S3_PUBLIC_URL: 'https://fotos.martillo.mx/',
      }).storage,
    ).toEqual({
      kind: 's3',
      bucket: 'martillo-fotos',
      region: 'auto',
      endpoint: 'https://abc123.r2.cloudflarestorage.com',
      credentials: { accessKeyId: 'id', secretAccessKey: 'secreto' },
      forcePathStyle: true,
      publicUrl: 'https://fotos.martillo.mx',
    });
  });

  it('addresses buckets path-style by default only behind S3_ENDPOINT, as S3_FORCE_PATH_STYLE can override', () => {
    const withEndpoint = { ...BUCKET, S3_ENDPOINT: 'http://127.0.0.1:9000' };
    expect(load(withEndpoint).storage).toMatchObject({ forcePathStyle: true, publicUrl: 'http://127.0.0.1:9000/martillo-fotos' });
    expect(load({ ...withEndpoint, S3_FORCE_PATH_STYLE: 'false' }).storage).toMatchObject({ forcePathStyle: false });
    expect(load({ ...BUCKET, S3_FORCE_PATH_STYLE: 'true' }).storage).toMatchObject({
      forcePathStyle: true,
      publicUrl: 'https://s3.us-east-1.amazonaws.com/martillo-fotos',
    });
  });

  it.each([
    [{ STORAGE: 'gcs' }, 'STORAGE must be local or s3'],
    [{ STORAGE: 's3' }, 'S3_BUCKET must be set (STORAGE=s3 stores images in that bucket)'],
    [{ S3_BUCKET: 'martillo-fotos' }, 'STORAGE must be s3 when S3_BUCKET is set'],
    [{ ...BUCKET, S3_BUCKET: 'Fotos_Martillo' }, 'S3_BUCKET must be a bucket name'],
    [{ ...BUCKET, S3_REGION: 'US East' }, 'S3_REGION must be a region such as us-east-1'],
    [{ ...BUCKET, S3_ENDPOINT: 'minio:9000' }, 'S3_ENDPOINT must be the S3 API address of an S3-compatible service'],
    [{ ...BUCKET, S3_PUBLIC_URL: 'cdn.martillo.mx' }, 'S3_PUBLIC_URL must be the public address of the bucket or of a CDN'],
    [{ ...BUCKET, S3_FORCE_PATH_STYLE: 'si' }, 'S3_FORCE_PATH_STYLE must be true or false'],
    [{ ...BUCKET, S3_ACCESS_KEY_ID: 'id' }, 'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together'],
  ])('stops with one message naming the variable: %o', (env, expected) => {
    const text = message(env);
    expect(text).toContain(expected);
    expect(text.split('\n')[0]).toBe('Invalid configuration:');
  });
});
