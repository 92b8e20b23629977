import { randomUUID } from 'node:crypto';
import Janode, { type JanodeConnection, type JanodeSession } from 'janode';
import VideoRoomPlugin from 'janode/plugins/videoroom';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../../src/server/config.js';
import type { Db } from '../../../../src/server/db/connect.js';
import { createJanusVideo, janusErrorCode, janusRoomKeys } from '../../../../src/server/providers/video/janus.js';
import { type VideoProvider, VideoUnavailableError } from '../../../../src/server/providers/video/types.js';
import type { Realtime } from '../../../../src/server/realtime/index.js';
import { janusMissingReason, type RunningJanus, startJanus } from '../../../support/janus.js';
import { freePort } from '../../../support/net.js';

const missing = janusMissingReason();
if (missing) console.warn(`video-janus: skipped: ${missing}`);

const SECRET = 's'.repeat(40);

function build(url: string, opts: { secret?: string; publicUrl?: string } = {}) {
  const config = loadConfig(
    {
      VIDEO_PROVIDER: 'janus',
      JANUS_URL: url,
      ...(opts.publicUrl ? { JANUS_PUBLIC_URL: opts.publicUrl } : {}),
      SESSION_SECRET: opts.secret ?? SECRET,
      ICE_SERVERS: 'stun:stun.example.com:3478',
    },
    { persistSecret: false },
  );
  const warnings: string[] = [];
  const log = { info() {}, warn: (_: object, msg?: string) => warnings.push(msg ?? ''), error: (_: object, msg?: string) => warnings.push(msg ?? '') };
  // The Janus provider never touches the database or Socket.IO: it only talks to Janus.
  return createJanusVideo({ config, log, db: null as unknown as Db, realtime: null as unknown as Realtime });
}

/** A plain Janus client, as a browser would be: janode on its own connection. */
async function client(url: string) {
  const connection: JanodeConnection = await Janode.connect({ address: { url }, max_retries: 0 });
  const session: JanodeSession = await connection.create();
  return {
    handle: () => session.attach(VideoRoomPlugin),
    close: () => connection.close().catch(() => {}),
  };
}

async function refusal(work: Promise<unknown>): Promise<number | null> {
  try {
    await work;
  } catch (err) {
    return janusErrorCode(err);
  }
  throw new Error('expected Janus to refuse');
}

describe.skipIf(missing !== null)('Janus provider (real Janus 1.1.2)', () => {
  let janus: RunningJanus;
  let provider: VideoProvider;
  let peer: Awaited<ReturnType<typeof client>>;
  const extra: VideoProvider[] = [];

  beforeAll(async () => {
    janus = await startJanus({ netns: false });
    provider = await build(janus.url);
    peer = await client(janus.url);
  });
  afterEach(async () => {
    await Promise.all(extra.splice(0).map((p) => p.close()));
  });
  afterAll(async () => {
    await peer?.close();
    await provider?.close();
    await janus?.stop();
  });

  const exists = async (room: number) => (await (await peer.handle()).exists({ room })).exists;

  it('opens the CSP to the public address and names itself', async () => {
    const p = await build(janus.url, { publicUrl: 'wss://video.example.com/janus' });
    extra.push(p);
    expect(p.name).toBe('janus');
    expect(p.cspConnectSrc).toEqual(['wss://video.example.com']);
    expect(provider.cspConnectSrc).toEqual([new URL(janus.url).origin]);
  });

  it('grants a publisher the room and its token, a subscriber the room without a token', async () => {
    const sessionId = randomUUID();
    const pub = await provider.grant(sessionId, 'publisher');
    const keys = janusRoomKeys(SECRET, sessionId);
    expect(pub).toEqual({
      provider: 'janus',
      role: 'publisher',
      iceServers: [{ urls: 'stun:stun.example.com:3478' }],
      url: janus.url,
      room: keys.room,
      token: keys.token,
    });
    expect(Number.isSafeInteger(pub.provider === 'janus' && pub.room)).toBe(true);
    expect(keys.room).toBeGreaterThan(0);
    const sub = await provider.grant(sessionId, 'subscriber');
    expect(sub).toEqual({ provider: 'janus', role: 'subscriber', iceServers: [{ urls: 'stun:stun.example.com:3478' }], url: janus.url, room: keys.room });
    expect('token' in sub).toBe(false);
    expect(await exists(keys.room)).toBe(true);
  });

  it('derives the same room and token on every server sharing SESSION_SECRET, and creates the room once', async () => {
    const sessionId = randomUUID();
    const other = await build(janus.url);
    const stranger = await build(janus.url, { secret: 't'.repeat(40) });
    extra.push(other, stranger);
    // Concurrent grants on two "servers": one creates the room, the others find it there.
    const grants = await Promise.all([
      provider.grant(sessionId, 'publisher'),
      other.grant(sessionId, 'publisher'),
      provider.grant(sessionId, 'publisher'),
      other.grant(sessionId, 'publisher'),
    ]);
    for (const g of grants) expect(g).toEqual(grants[0]);
    const elsewhere = await stranger.grant(sessionId, 'publisher');
    expect(elsewhere.provider === 'janus' && grants[0]?.provider === 'janus' && elsewhere.room !== grants[0].room).toBe(true);
    const another = await provider.grant(randomUUID(), 'publisher');
    expect(another.provider === 'janus' && grants[0]?.provider === 'janus' && another.room !== grants[0].room).toBe(true);
  });

  it('a subscriber grant does not create the room (a viewer of an ended session revives nothing)', async () => {
    const sessionId = randomUUID();
    const sub = await provider.grant(sessionId, 'subscriber');
    expect(sub.provider === 'janus' && (await exists(sub.room))).toBe(false);
  });

  it('Janus refuses a publisher without the token or with a wrong one, and accepts the token', async () => {
    const sessionId = randomUUID();
    const grant = await provider.grant(sessionId, 'publisher');
    if (grant.provider !== 'janus' || !grant.token) throw new Error('expected a Janus publisher grant');
    const viewer = await provider.grant(sessionId, 'subscriber');
    if (viewer.provider !== 'janus') throw new Error('expected a Janus grant');

    expect(await refusal((await peer.handle()).joinPublisher({ room: viewer.room }))).toBe(433);
    expect(await refusal((await peer.handle()).joinPublisher({ room: viewer.room, token: 'not-the-token' }))).toBe(433);
    // Another session's token opens only its own room.
    const otherGrant = await provider.grant(randomUUID(), 'publisher');
    if (otherGrant.provider !== 'janus') throw new Error('expected a Janus grant');
    expect(await refusal((await peer.handle()).joinPublisher({ room: grant.room, token: otherGrant.token }))).toBe(433);

    const joined = await (await peer.handle()).joinPublisher({ room: grant.room, token: grant.token, display: 'seller' });
    expect(joined.room).toBe(grant.room);
    expect(joined.feed).toBeGreaterThan(0);
    // The room is private and its secret stays on the server: a client cannot destroy it.
    expect(await refusal((await peer.handle()).destroy({ room: grant.room, secret: 'a-guess' }))).toBe(433);
  });

  it('endSession destroys the room and kicks whoever is in it; ending again is fine', async () => {
    const sessionId = randomUUID();
    const grant = await provider.grant(sessionId, 'publisher');
    if (grant.provider !== 'janus') throw new Error('expected a Janus grant');
    const seller = await peer.handle();
    const kicked = new Promise<void>((resolve) => seller.once(VideoRoomPlugin.EVENT.VIDEOROOM_DESTROYED as string, () => resolve()));
    await seller.joinPublisher({ room: grant.room, token: grant.token });
    await provider.endSession(sessionId);
    await kicked;
    expect(await exists(grant.room)).toBe(false);
    await provider.endSession(sessionId);
    await provider.endSession(randomUUID());
    // The next broadcast of the same session gets its room back.
    await provider.grant(sessionId, 'publisher');
    expect(await exists(grant.room)).toBe(true);
  });
});

describe.skipIf(missing !== null)('Janus provider when Janus is down or restarts', () => {
  it('answers VideoUnavailableError while Janus is unreachable, and grants again once it is back', async () => {
    const port = await freePort();
    const url = `ws://127.0.0.1:${port}`;
    const provider = await build(url);
    let janus: RunningJanus | null = null;
    try {
      await expect(provider.grant(randomUUID(), 'publisher')).rejects.toBeInstanceOf(VideoUnavailableError);
      await expect(provider.grant(randomUUID(), 'subscriber')).rejects.toBeInstanceOf(VideoUnavailableError);
      await expect(provider.endSession(randomUUID())).rejects.toBeInstanceOf(VideoUnavailableError);

      janus = await startJanus({ netns: false, port });
      const sessionId = randomUUID();
      const before = await provider.grant(sessionId, 'publisher');

      // Janus restarts: its rooms are gone, the provider's connection is dead.
      await janus.stop();
      await expect(provider.grant(sessionId, 'publisher')).rejects.toBeInstanceOf(VideoUnavailableError);
      janus = await startJanus({ netns: false, port });
      const after = await provider.grant(sessionId, 'publisher');
      expect(after).toEqual(before);
      // The room really is there again, with the same token.
      const peer = await client(url);
      try {
        if (after.provider !== 'janus') throw new Error('expected a Janus grant');
        const joined = await (await peer.handle()).joinPublisher({ room: after.room, token: after.token });
        expect(joined.room).toBe(after.room);
      } finally {
        await peer.close();
      }
    } finally {
      await provider.close();
      await janus?.stop();
    }
  });

  it('after close() it grants nothing', async () => {
    const janus = await startJanus({ netns: false });
    try {
      const provider = await build(janus.url);
      await provider.grant(randomUUID(), 'publisher');
      await provider.close();
      await expect(provider.grant(randomUUID(), 'publisher')).rejects.toBeInstanceOf(VideoUnavailableError);
    } finally {
      await janus.stop();
    }
  });
});
