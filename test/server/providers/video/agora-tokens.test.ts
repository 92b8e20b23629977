import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { inflateSync } from 'node:zlib';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGORA_TOKEN_SECONDS, type AgoraConfigAnswer, type AgoraTokenAnswer } from '../../../../src/domain/video.js';
import { messages } from '../../../../src/server/messages.js';
import { type Actor, buildActor } from '../../../support/actors.js';
import { buildSession } from '../../../support/factories.js';
import { startTestServer, type TestServer } from '../../../support/server.js';

/**
 * SPEC §7's Agora routes on the real app: /api/agora-config says whether Agora is on, and
 * /api/agora-token signs a token for the session's channel. Publisher tokens go to the session's
 * editors only; subscriber tokens to anyone. Each token is decoded here (AccessToken2: "007" +
 * base64 of zlib data) and its signature checked with the package's own verifier, so a token
 * for the wrong channel, account, role or lifetime cannot pass.
 */

const APP_ID = '0123456789abcdef0123456789abcdef';
const APP_CERTIFICATE = 'fedcba9876543210fedcba9876543210';
const AGORA_ENV = { VIDEO_PROVIDER: 'agora', AGORA_APP_ID: APP_ID, AGORA_APP_CERTIFICATE: APP_CERTIFICATE };

// AccessToken2's own parser and verifier (the package's index does not export it).
const { AccessToken2 } = createRequire(import.meta.url)('agora-token/src/AccessToken2.js') as {
  AccessToken2: new () => { from_string(token: string): boolean; verifySignature(cert: string): boolean };
};

/** RTC privileges of AccessToken2's ServiceRtc. */
const JOIN = 1;
const PUBLISH_AUDIO = 2;
const PUBLISH_VIDEO = 3;
const PUBLISH_DATA = 4;

interface DecodedToken {
  appId: string;
  issueTs: number;
  expire: number;
  services: { type: number; privileges: Record<number, number>; channel: string; account: string }[];
}

/** Reads an AccessToken2 by its layout (little-endian; strings are a uint16 length then bytes). */
function decodeToken(token: string): DecodedToken {
  expect(token.startsWith('007')).toBe(true);
  const buf = inflateSync(Buffer.from(token.slice(3), 'base64'));
  let at = 0;
  const u16 = () => {
    const v = buf.readUInt16LE(at);
    at += 2;
    return v;
  };
  const u32 = () => {
    const v = buf.readUInt32LE(at);
    at += 4;
    return v;
  };
  const bytes = () => {
    const n = u16();
    const v = buf.subarray(at, at + n);
    at += n;
    return v;
  };
  bytes(); // signature
  const appId = bytes().toString();
  const issueTs = u32();
  const expire = u32();
  u32(); // salt
  const count = u16();
  const services: DecodedToken['services'] = [];
  for (let i = 0; i < count; i++) {
    const type = u16();
    const privileges: Record<number, number> = {};
    for (let n = u16(); n > 0; n--) {
      const key = u16();
      privileges[key] = u32();
    }
    services.push({ type, privileges, channel: bytes().toString(), account: bytes().toString() });
  }
  expect(at).toBe(buf.length);
  return { appId, issueTs, expire, services };
}

function expectSigned(token: string) {
  const parsed = new AccessToken2();
  expect(parsed.from_string(token)).toBe(true);
  expect(parsed.verifySignature(APP_CERTIFICATE)).toBe(true);
  expect(parsed.verifySignature('00000000000000000000000000000000')).toBe(false);
}

type ActorName = 'anonymous' | 'buyer' | 'seller' | 'colleague' | 'companyAdmin' | 'otherSeller' | 'otherAdmin' | 'platformAdmin';
const ACTORS: ActorName[] = ['anonymous', 'buyer', 'seller', 'colleague', 'companyAdmin', 'otherSeller', 'otherAdmin', 'platformAdmin'];
const EDITORS: ActorName[] = ['seller', 'companyAdmin', 'platformAdmin'];

describe('with Agora configured', () => {
  let server: TestServer;
  const actors = {} as Record<Exclude<ActorName, 'anonymous'>, Actor>;
  let sessionId: string;

  beforeAll(async () => {
    server = await startTestServer({ env: AGORA_ENV, listen: false });
    const make = (email: string, name: string, roles: ('admin' | 'seller' | 'buyer')[], companyId?: string) =>
      buildActor(server, { email, name, roles, ...(companyId ? { companyId } : {}) });
    actors.buyer = await make('compra@agora.mx', 'Carla Compradora', ['buyer']);
    actors.seller = await make('vende@agora-a.mx', 'Ana Vendedora', ['seller'], 'agora-a');
    actors.colleague = await make('colega@agora-a.mx', 'Olga Colega', ['seller'], 'agora-a');
    actors.companyAdmin = await make('jefa@agora-a.mx', 'Julia Jefa', ['admin'], 'agora-a');
    actors.otherSeller = await make('vende@agora-b.mx', 'Beto Vendedor', ['seller'], 'agora-b');
    actors.otherAdmin = await make('jefe@agora-b.mx', 'Jorge Jefe', ['admin'], 'agora-b');
    actors.platformAdmin = await make('admin@martillo.mx', 'Ada Admin', ['admin']);
    const session = await buildSession(server.ctx.db, { sellerId: actors.seller.id, companyId: 'agora-a' });
    sessionId = session.id;
  }, 60_000);
  afterAll(async () => server?.close());

  function tokenAs(actor: ActorName, query: string): Promise<LightMyRequestResponse> {
    const cookie = actor === 'anonymous' ? undefined : actors[actor].cookie;
    return server.app.inject({ method: 'GET', url: `/api/agora-token?${query}`, headers: cookie ? { cookie } : {} });
  }

  it('config: enabled, with the app id, to anyone', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/api/agora-config' });
    expect(res.statusCode).toBe(200);
    expect(res.json<AgoraConfigAnswer>()).toEqual({ enabled: true, appId: APP_ID });
    // The certificate signs tokens and never leaves the server.
    expect(res.body).not.toContain(APP_CERTIFICATE);
  });

  it("the CSP opens connect-src to Agora's hosts, and the grant names the session's channel", async () => {
    expect(server.ctx.video.name).toBe('agora');
    expect(server.ctx.video.cspConnectSrc).toEqual(expect.arrayContaining(['https://*.agora.io', 'wss://*.edge.agora.io:*']));
    expect(await server.ctx.video.grant(sessionId, 'publisher')).toEqual({ provider: 'agora', role: 'publisher', channel: sessionId });
  });

  for (const actor of ACTORS) {
    const isEditor = EDITORS.includes(actor);
    it(`publisher token as ${actor}: ${isEditor ? '200' : '403'}`, async () => {
      const res = await tokenAs(actor, `channel=${sessionId}&role=publisher`);
      if (!isEditor) {
        expect(res.statusCode, res.body).toBe(403);
        expect(res.json().error).toEqual({ code: 'FORBIDDEN', message: messages.video.publishForbidden });
        return;
      }
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      const answer = res.json<AgoraTokenAnswer>();
      expect(answer.userAccount).toBe(actors[actor as Exclude<ActorName, 'anonymous'>].id);
      const decoded = decodeToken(answer.token);
      expect(decoded.appId).toBe(APP_ID);
      expect(decoded.services).toEqual([
        {
          type: 1,
          channel: sessionId,
          account: answer.userAccount,
          privileges: {
            [JOIN]: AGORA_TOKEN_SECONDS,
            [PUBLISH_AUDIO]: AGORA_TOKEN_SECONDS,
            [PUBLISH_VIDEO]: AGORA_TOKEN_SECONDS,
            [PUBLISH_DATA]: AGORA_TOKEN_SECONDS,
          },
        },
      ]);
      expectSigned(answer.token);
    });

    it(`subscriber token as ${actor}: 200, join only`, async () => {
      const res = await tokenAs(actor, `channel=${sessionId}&role=subscriber`);
      expect(res.statusCode, res.body).toBe(200);
      const answer = res.json<AgoraTokenAnswer>();
      const decoded = decodeToken(answer.token);
      expect(decoded.services).toEqual([{ type: 1, channel: sessionId, account: answer.userAccount, privileges: { [JOIN]: AGORA_TOKEN_SECONDS } }]);
      expectSigned(answer.token);
      if (actor === 'anonymous') {
        expect(answer.userAccount).toMatch(/^anon-[A-Za-z0-9_-]+$/);
      } else {
        // The viewer's own id, plus a nonce so a second tab (or the seller's own check) is a separate account.
        expect(answer.userAccount.startsWith(`w-${actors[actor].id}-`)).toBe(true);
      }
      expect(answer.userAccount.length).toBeLessThanOrEqual(255);
    });
  }

  it('two viewers, even the same anonymous browser twice, never share an account', async () => {
    const a = (await tokenAs('anonymous', `channel=${sessionId}&role=subscriber`)).json<AgoraTokenAnswer>();
    const b = (await tokenAs('anonymous', `channel=${sessionId}&role=subscriber`)).json<AgoraTokenAnswer>();
    const c = (await tokenAs('buyer', `channel=${sessionId}&role=subscriber`)).json<AgoraTokenAnswer>();
    const d = (await tokenAs('buyer', `channel=${sessionId}&role=subscriber`)).json<AgoraTokenAnswer>();
    expect(new Set([a.userAccount, b.userAccount, c.userAccount, d.userAccount]).size).toBe(4);
  });

  it('expiry: expiresAt is an hour from now, and the token itself says so', async () => {
    const before = Date.now();
    const res = await tokenAs('seller', `channel=${sessionId}&role=publisher`);
    const after = Date.now();
    const answer = res.json<AgoraTokenAnswer>();
    expect(answer.expiresAt).toBeGreaterThanOrEqual(before + AGORA_TOKEN_SECONDS * 1000);
    expect(answer.expiresAt).toBeLessThanOrEqual(after + AGORA_TOKEN_SECONDS * 1000);
    const decoded = decodeToken(answer.token);
    // issueTs is whole seconds; the token ends issueTs + expire, which must not come before expiresAt by more than rounding.
    expect(decoded.issueTs).toBeGreaterThanOrEqual(Math.floor(before / 1000));
    expect(decoded.issueTs).toBeLessThanOrEqual(Math.ceil(after / 1000));
    expect(decoded.expire).toBe(AGORA_TOKEN_SECONDS);
    expect(Math.abs((decoded.issueTs + decoded.expire) * 1000 - answer.expiresAt)).toBeLessThan(2000);
  });

  it('a session that does not exist: 404, for both roles', async () => {
    for (const role of ['publisher', 'subscriber']) {
      const res = await tokenAs('platformAdmin', `channel=${randomUUID()}&role=${role}`);
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json().error.message).toBe(messages.live.sessionNotFound);
    }
  });

  it('a bad query: 400, and no token', async () => {
    const bad = [
      '',
      `channel=${sessionId}`,
      'role=subscriber',
      `channel=${sessionId}&role=host`,
      `channel=${sessionId}&role=PUBLISHER`,
      'channel=not-a-session&role=subscriber',
      `channel=${sessionId}x&role=subscriber`,
      `channel=${encodeURIComponent("'; drop table live_sessions; --")}&role=subscriber`,
      `channel=${sessionId}&channel=${sessionId}&role=subscriber`,
    ];
    for (const query of bad) {
      const res = await tokenAs('seller', query);
      expect(res.statusCode, `${query}: ${res.body}`).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION');
      expect(res.body).not.toContain('"token"');
    }
  });
});

describe('without Agora', () => {
  const cases: [string, Record<string, string>][] = [
    ['VIDEO_PROVIDER=agora without keys', { VIDEO_PROVIDER: 'agora' }],
    ['another provider, even with keys set', { VIDEO_PROVIDER: 'embedded', AGORA_APP_ID: APP_ID, AGORA_APP_CERTIFICATE: APP_CERTIFICATE }],
  ];
  for (const [name, env] of cases) {
    it(`${name}: config disabled, tokens 503 VIDEO_DISABLED`, async () => {
      const server = await startTestServer({ env, listen: false });
      try {
        const config = await server.app.inject({ method: 'GET', url: '/api/agora-config' });
        expect(config.statusCode).toBe(200);
        expect(config.json<AgoraConfigAnswer>()).toEqual({ enabled: false, appId: null });
        const seller = await buildActor(server, { email: 'vende@sin-agora.mx', name: 'Ana Vendedora', roles: ['seller'], companyId: 'sin' });
        const session = await buildSession(server.ctx.db, { sellerId: seller.id, companyId: 'sin' });
        for (const query of [`channel=${session.id}&role=publisher`, `channel=${session.id}&role=subscriber`, 'role=nonsense']) {
          const res = await server.app.inject({ method: 'GET', url: `/api/agora-token?${query}`, headers: { cookie: seller.cookie } });
          expect(res.statusCode, res.body).toBe(503);
          expect(res.json().error).toEqual({ code: 'VIDEO_DISABLED', message: messages.video.disabled });
        }
        if (env.VIDEO_PROVIDER === 'agora') expect(server.ctx.video.cspConnectSrc).toEqual([]);
      } finally {
        await server.close();
      }
    }, 60_000);
  }
});
