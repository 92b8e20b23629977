import { randomUUID } from 'node:crypto';
import Janode, { type JanodeConnection } from 'janode';
import StreamingPlugin from 'janode/plugins/streaming';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../../src/server/config.js';
import type { Db } from '../../../../src/server/db/connect.js';
import { createJanusVideo, janusErrorCode, janusRoomKeys } from '../../../../src/server/providers/video/janus.js';
import { type VideoProvider, VideoUnavailableError } from '../../../../src/server/providers/video/types.js';
import type { Realtime } from '../../../../src/server/realtime/index.js';
import { janusStreamingMissingReason, type RunningJanus, startJanus } from '../../../support/janus.js';

const missing = janusStreamingMissingReason();
if (missing) console.warn(`janus edges: skipped: ${missing}`);

const SECRET = 'e'.repeat(40);

function build(env: Record<string, string>) {
  const config = loadConfig({ VIDEO_PROVIDER: 'janus', SESSION_SECRET: SECRET, ...env }, { persistSecret: false });
  const log = { info() {}, warn() {}, error() {} };
  // The Janus provider never touches the database or Socket.IO: it only talks to Janus.
  return createJanusVideo({ config, log, db: null as unknown as Db, realtime: null as unknown as Realtime });
}

/** A mountpoint as an edge's Streaming plugin describes it to whoever holds its secret, or the refusal's code. */
async function mountpoint(url: string, sessionId: string): Promise<{ viewers: number; ports: number[] } | number | null> {
  const keys = janusRoomKeys(SECRET, sessionId);
  const connection: JanodeConnection = await Janode.connect({ address: { url }, max_retries: 0 });
  try {
    const handle = await (await connection.create()).attach(StreamingPlugin);
    const answer = await handle.message({ request: 'info', id: keys.room, secret: keys.secret });
    const info = answer.plugindata?.data?.info as { viewers: number; media: { port: number }[] };
    return { viewers: info.viewers, ports: info.media.map((m) => m.port) };
  } catch (err) {
    return janusErrorCode(err);
  } finally {
    await connection.close().catch(() => {});
  }
}

describe.skipIf(missing !== null)('viewers through Janus edges (real Janus 1.1.2: an origin and two edges)', () => {
  let origin: RunningJanus;
  let edges: RunningJanus[];
  let provider: VideoProvider;

  beforeAll(async () => {
    [origin, ...edges] = await Promise.all([
      startJanus({ netns: false }),
      startJanus({ netns: false, plugins: ['streaming'] }),
      startJanus({ netns: false, plugins: ['streaming'] }),
    ]);
    provider = await build({
      JANUS_URL: origin.url,
      JANUS_EDGES: edges.map((e) => e.url).join(','),
      JANUS_EDGES_PUBLIC_URLS: 'wss://orilla1.example.com,wss://orilla2.example.com',
    });
  });
  afterAll(async () => {
    await provider?.close();
    for (const janus of [origin, ...(edges ?? [])]) await janus?.stop();
  });

  it('opens the CSP to the origin and to every edge as browsers reach them', () => {
    expect(provider.cspConnectSrc).toEqual([new URL(origin.url).origin, 'wss://orilla1.example.com', 'wss://orilla2.example.com']);
  });

  it('gives the seller the origin room, and spreads viewers over the edges, each with the show’s mountpoint ready there', async () => {
    const sessionId = randomUUID();
    const seller = await provider.grant(sessionId, 'publisher');
    expect(seller).toMatchObject({ provider: 'janus', url: origin.url, token: expect.any(String) });
    expect(seller).not.toHaveProperty('stream');

    const grants = [];
    for (let i = 0; i < 4; i++) grants.push(await provider.grant(sessionId, 'subscriber'));
    const room = janusRoomKeys(SECRET, sessionId).room;
    expect(grants.map((g) => (g.provider === 'janus' ? [g.url, g.stream] : null))).toEqual([
      ['wss://orilla1.example.com', { id: room, edge: 0 }],
      ['wss://orilla2.example.com', { id: room, edge: 1 }],
      ['wss://orilla1.example.com', { id: room, edge: 0 }],
      ['wss://orilla2.example.com', { id: room, edge: 1 }],
    ]);
    // Neither viewer grant holds the publish token.
    for (const g of grants) expect(g).not.toHaveProperty('token');
    for (const edge of edges) {
      const found = await mountpoint(edge.url, sessionId);
      expect(found, edge.url).toMatchObject({ viewers: 0, ports: [expect.any(Number), expect.any(Number)] });
    }
  });

  it('the show’s end destroys its mountpoint on every edge', async () => {
    const sessionId = randomUUID();
    await provider.grant(sessionId, 'publisher');
    await provider.grant(sessionId, 'subscriber');
    await provider.grant(sessionId, 'subscriber');
    await provider.endSession(sessionId);
    for (const edge of edges) expect(await mountpoint(edge.url, sessionId)).toBe(455);
  });

  it('a viewer before the seller’s first broadcast is sent to an edge, where no mountpoint is made for a show that may never start', async () => {
    const sessionId = randomUUID();
    const grant = await provider.grant(sessionId, 'subscriber');
    expect(grant).toMatchObject({ stream: { id: janusRoomKeys(SECRET, sessionId).room } });
    for (const edge of edges) expect(await mountpoint(edge.url, sessionId)).toBe(455);
  });

  it('viewers there before the seller’s first broadcast spread over the edges and weigh where they wait: once she is live, the next ones even them out', async () => {
    // A provider of its own: the other tests' viewers, still arriving, would count on the edges too.
    const fresh = await build({ JANUS_URL: origin.url, JANUS_EDGES: edges.map((e) => e.url).join(',') });
    try {
      const sessionId = randomUUID();
      const edgeOf = async () => {
        const grant = await fresh.grant(sessionId, 'subscriber');
        return grant.provider === 'janus' ? grant.stream?.edge : null;
      };
      // Each page waits on its edge for the show's mountpoint (it asks the edge, not the server, until then).
      expect([await edgeOf(), await edgeOf(), await edgeOf()]).toEqual([0, 1, 0]);
      await fresh.grant(sessionId, 'publisher');
      // Two wait on the first edge and one on the second, whether or not their pages have connected yet.
      expect([await edgeOf(), await edgeOf()]).toEqual([1, 0]);
    } finally {
      await fresh.close();
    }
  });

  it('a page reloaded before the seller’s first broadcast counts once, on the edge its last grant named', async () => {
    const fresh = await build({ JANUS_URL: origin.url, JANUS_EDGES: edges.map((e) => e.url).join(',') });
    try {
      const sessionId = randomUUID();
      const edgeOf = async (viewer?: string) => {
        const grant = await fresh.grant(sessionId, 'subscriber', viewer ? { viewer } : {});
        return grant.provider === 'janus' ? grant.stream?.edge : null;
      };
      const [ana, beto] = [randomUUID(), randomUUID()];
      // Ana's page asks, then reloads twice: she waits on the first edge alone, so Beto goes to the second.
      expect([await edgeOf(ana), await edgeOf(ana), await edgeOf(ana), await edgeOf(beto)]).toEqual([0, 0, 0, 1]);
      // A page that names no viewer is a viewer of its own each time it asks.
      expect([await edgeOf(), await edgeOf()]).toEqual([0, 1]);
    } finally {
      await fresh.close();
    }
  });

  it('viewers who ask at the same moment spread over the edges', async () => {
    const fresh = await build({ JANUS_URL: origin.url, JANUS_EDGES: edges.map((e) => e.url).join(',') });
    try {
      const sessionId = randomUUID();
      await fresh.grant(sessionId, 'publisher');
      const grants = await Promise.all(Array.from({ length: 4 }, () => fresh.grant(sessionId, 'subscriber')));
      expect(grants.map((g) => (g.provider === 'janus' ? g.stream?.edge : null)).sort()).toEqual([0, 0, 1, 1]);
    } finally {
      await fresh.close();
    }
  });

  it('a feed with nobody publishing forwards nothing and fails nothing', async () => {
    const sessionId = randomUUID();
    await provider.grant(sessionId, 'publisher');
    await expect(provider.edges?.feed(sessionId)).resolves.toBeUndefined();
    // A show whose room is gone (ended) is no error either.
    await provider.endSession(sessionId);
    await expect(provider.edges?.feed(sessionId)).resolves.toBeUndefined();
  });

  it('an edge restarted (its mountpoints gone) gets the show’s mountpoint again from the next feed', async () => {
    const sessionId = randomUUID();
    await provider.grant(sessionId, 'publisher');
    await provider.grant(sessionId, 'subscriber');
    await provider.edges?.feed(sessionId);
    const before = await mountpoint((edges[1] as RunningJanus).url, sessionId);
    expect(before).toMatchObject({ ports: [expect.any(Number), expect.any(Number)] });
    await (edges[1] as RunningJanus).restart();
    expect(await mountpoint((edges[1] as RunningJanus).url, sessionId)).toBe(455);
    await provider.edges?.feed(sessionId);
    expect(await mountpoint((edges[1] as RunningJanus).url, sessionId)).toMatchObject({ ports: [expect.any(Number), expect.any(Number)] });
    expect(provider.edges?.load().map((e) => e.up)).toEqual([true, true]);
  });

  it('an edge that dies gets no more viewers; with no edge left a viewer is told the video is unavailable', async () => {
    const sessionId = randomUUID();
    await provider.grant(sessionId, 'publisher');
    await provider.grant(sessionId, 'subscriber');
    await (edges[0] as RunningJanus).kill();
    const after = [];
    for (let i = 0; i < 3; i++) after.push(await provider.grant(sessionId, 'subscriber'));
    expect(after.map((g) => (g.provider === 'janus' ? g.stream?.edge : null))).toEqual([1, 1, 1]);
    expect(provider.edges?.load().map((e) => e.up)).toEqual([false, true]);
    await (edges[1] as RunningJanus).kill();
    await expect(provider.grant(sessionId, 'subscriber')).rejects.toBeInstanceOf(VideoUnavailableError);
  });
});
