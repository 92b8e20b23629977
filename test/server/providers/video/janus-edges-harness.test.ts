/**
 * test/support/janus.ts runs several Janus side by side with the Streaming plugin, as the edges
 * will: each on its own WebSocket port and its own UDP ranges, mountpoints created through the
 * API, and one killed the way a machine dies while the other carries on. Control plane only: no
 * media, so no network namespace.
 */
import { createSocket } from 'node:dgram';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { janusStreamingMissingReason, type RunningJanus, startJanus } from '../../../support/janus.js';

const missing = janusStreamingMissingReason();
if (missing) console.warn(`janus-edges-harness: skipped: ${missing}`);

const STREAMING_ADMIN_KEY = 'edge-admin-key';

/** The multistream rtp mountpoint an edge gets for one live session: Opus and VP8, ports chosen by Janus. */
const MOUNTPOINT_MEDIA = [
  { type: 'audio', mid: 'a', port: 0, pt: 111, codec: 'opus' },
  { type: 'video', mid: 'v', port: 0, pt: 96, codec: 'vp8', bufferkf: true },
];

interface JanusReply {
  janus: string;
  transaction?: string;
  data?: { id?: number };
  error?: { code: number; reason: string };
  plugindata?: { plugin: string; data: Record<string, unknown> };
}

interface CreatedMountpoint {
  streaming?: string;
  error_code?: number;
  error?: string;
  stream?: { id: number; ports?: { type: string; mid: string; port?: number }[] };
}

/** The Janus API over a plain WebSocket, as the server and browsers speak it (subprotocol janus-protocol). */
class JanusClient {
  private next = 0;
  private readonly waiting = new Map<string, (reply: JanusReply) => void>();

  private constructor(private readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const reply = JSON.parse(String(data)) as JanusReply;
      // A request handled later is acknowledged first: its answer is the next message with the transaction.
      if (reply.janus === 'ack' || !reply.transaction) return;
      const resolve = this.waiting.get(reply.transaction);
      this.waiting.delete(reply.transaction);
      resolve?.(reply);
    });
  }

  static open(url: string): Promise<JanusClient> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, 'janus-protocol');
      ws.once('open', () => resolve(new JanusClient(ws)));
      ws.once('error', reject);
    });
  }

  request(body: Record<string, unknown>): Promise<JanusReply> {
    const transaction = `t${++this.next}`;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no answer from Janus to ${JSON.stringify(body)}`)), 10_000);
      this.waiting.set(transaction, (reply) => {
        clearTimeout(timer);
        resolve(reply);
      });
      this.ws.send(JSON.stringify({ ...body, transaction }));
    });
  }

  /** A session and a handle on `plugin`; throws with Janus's error when Janus refuses. */
  async attach(plugin: string): Promise<{ session: number; handle: number }> {
    const created = await this.request({ janus: 'create' });
    if (created.janus !== 'success' || created.data?.id === undefined) throw new Error(`create: ${JSON.stringify(created)}`);
    const session = created.data.id;
    const attached = await this.request({ janus: 'attach', session_id: session, plugin });
    if (attached.janus !== 'success' || attached.data?.id === undefined) throw new JanusError(attached);
    return { session, handle: attached.data.id };
  }

  /** A Streaming `create` of an rtp mountpoint with MOUNTPOINT_MEDIA: the plugin's answer (created or its error). */
  async createMountpoint(handle: { session: number; handle: number }, extra: Record<string, unknown> = {}): Promise<CreatedMountpoint> {
    const reply = await this.request({
      janus: 'message',
      session_id: handle.session,
      handle_id: handle.handle,
      body: { request: 'create', type: 'rtp', media: MOUNTPOINT_MEDIA, ...extra },
    });
    if (reply.janus !== 'success' || reply.plugindata?.plugin !== 'janus.plugin.streaming') throw new JanusError(reply);
    return reply.plugindata.data as CreatedMountpoint;
  }

  close(): void {
    this.ws.terminate();
  }
}

class JanusError extends Error {
  readonly code: number | undefined;
  constructor(reply: JanusReply) {
    super(`Janus answered ${JSON.stringify(reply)}`);
    this.code = reply.error?.code;
  }
}

/** Whether a WebSocket to `url` opens ('open') or how it fails (the error's code, e.g. ECONNREFUSED). */
function connectOutcome(url: string): Promise<string> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, 'janus-protocol');
    ws.once('open', () => {
      ws.terminate();
      resolve('open');
    });
    ws.once('error', (err: NodeJS.ErrnoException) => {
      ws.terminate();
      resolve(err.code ?? err.message);
    });
  });
}

/** One `info` round trip: Janus's server_info answer. */
async function serverInfo(url: string): Promise<JanusReply & { plugins?: Record<string, unknown> }> {
  const client = await JanusClient.open(url);
  try {
    return await client.request({ janus: 'info' });
  } finally {
    client.close();
  }
}

/** Whether this process can bind UDP `port` (false while a Janus holds it). */
function udpPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createSocket('udp4');
    socket.once('error', () => {
      socket.close();
      resolve(false);
    });
    socket.bind(port, '0.0.0.0', () => socket.close(() => resolve(true)));
  });
}

const inRange = (port: number | undefined, [low, high]: readonly [number, number]) => port !== undefined && port >= low && port <= high;
const overlap = (a: readonly [number, number], b: readonly [number, number]) => a[0] <= b[1] && b[0] <= a[1];

/** The port of each mid in a created mountpoint's answer. */
function mountpointPorts(created: CreatedMountpoint): Record<string, number | undefined> {
  return Object.fromEntries((created.stream?.ports ?? []).map((p) => [p.mid, p.port]));
}

describe.skipIf(missing !== null)('Janus edges: several Janus with the Streaming plugin on one host', () => {
  /** An edge: Streaming only, no admin key. */
  let edge: RunningJanus;
  /** An origin that is an edge too: VideoRoom and Streaming, a Streaming admin key. */
  let both: RunningJanus;
  const clients: JanusClient[] = [];
  /** A mountpoint the edge had when it was killed. */
  let killedMountpoint: number | undefined;
  const open = async (janus: RunningJanus) => {
    const client = await JanusClient.open(janus.url);
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    [edge, both] = await Promise.all([
      startJanus({ netns: false, plugins: ['streaming'] }),
      startJanus({ netns: false, plugins: ['videoroom', 'streaming'], streamingAdminKey: STREAMING_ADMIN_KEY }),
    ]);
  });
  afterAll(async () => {
    for (const client of clients) client.close();
    await Promise.all([edge?.stop(), both?.stop()]);
  });

  it('gives each Janus its own WebSocket port and UDP ranges that overlap nowhere', () => {
    expect(edge.port).not.toBe(both.port);
    for (const janus of [edge, both]) {
      if (!janus.streamingPortRange) throw new Error('expected a Streaming range');
      expect(janus.plugins).toContain('streaming');
      expect(overlap(janus.icePortRange, janus.streamingPortRange)).toBe(false);
      for (const part of [janus.icePortRange, janus.streamingPortRange]) {
        expect(inRange(part[0], janus.rtpPortRange) && inRange(part[1], janus.rtpPortRange)).toBe(true);
      }
    }
    expect(overlap(edge.rtpPortRange, both.rtpPortRange)).toBe(false);
  });

  it('loads the plugins asked for and no other', async () => {
    expect(Object.keys((await serverInfo(edge.url)).plugins ?? {}).sort()).toEqual(['janus.plugin.streaming']);
    expect(Object.keys((await serverInfo(both.url)).plugins ?? {}).sort()).toEqual(['janus.plugin.streaming', 'janus.plugin.videoroom']);
    const client = await open(edge);
    // 460: no such plugin.
    await expect(client.attach('janus.plugin.videoroom')).rejects.toMatchObject({ code: 460 });
    // No mountpoint from the configuration: the server creates them all through the API.
    const handle = await client.attach('janus.plugin.streaming');
    const list = await client.request({ janus: 'message', session_id: handle.session, handle_id: handle.handle, body: { request: 'list' } });
    expect(list.plugindata?.data.list).toEqual([]);
  });

  it('creates an rtp mountpoint (Opus and VP8) on each Janus, on ports of its own Streaming range', async () => {
    const seen: number[] = [];
    for (const janus of [edge, both]) {
      const client = await open(janus);
      const handle = await client.attach('janus.plugin.streaming');
      const extra = janus === both ? { admin_key: STREAMING_ADMIN_KEY } : {};
      for (let i = 0; i < 2; i++) {
        const created = await client.createMountpoint(handle, extra);
        expect(created.streaming, JSON.stringify(created)).toBe('created');
        expect(created.stream?.ports?.map((p) => [p.type, p.mid])).toEqual([
          ['audio', 'a'],
          ['video', 'v'],
        ]);
        const ports = mountpointPorts(created);
        for (const mid of ['a', 'v']) {
          expect(inRange(ports[mid], janus.streamingPortRange ?? [0, -1]), `${mid} on ${ports[mid]}, range ${janus.streamingPortRange}`).toBe(true);
          seen.push(ports[mid] as number);
        }
      }
    }
    // Two mountpoints on each of two Janus: eight ports, none handed out twice.
    expect(new Set(seen).size).toBe(8);
  });

  it('asks for the Streaming admin key only where one was configured', async () => {
    const client = await open(both);
    const handle = await client.attach('janus.plugin.streaming');
    // 453: admin_key missing; 457: a wrong one.
    expect((await client.createMountpoint(handle)).error_code).toBe(453);
    expect((await client.createMountpoint(handle, { admin_key: 'not-the-key' })).error_code).toBe(457);
    expect((await client.createMountpoint(handle, { admin_key: STREAMING_ADMIN_KEY })).streaming).toBe('created');
  });

  it('after kill() the killed Janus refuses connections and frees its ports, while the other still answers', async () => {
    const client = await open(edge);
    const created = await client.createMountpoint(await client.attach('janus.plugin.streaming'));
    killedMountpoint = created.stream?.id;
    const videoPort = mountpointPorts(created).v;
    if (videoPort === undefined) throw new Error(`no video port in ${JSON.stringify(created)}`);
    expect(await udpPortFree(videoPort)).toBe(false);

    const pid = edge.pid();
    if (pid === null) throw new Error('expected the edge to run');
    await edge.kill();
    expect(edge.alive()).toBe(false);
    expect(edge.pid()).toBeNull();
    expect(() => process.kill(pid, 0)).toThrow(/ESRCH/);
    expect(await connectOutcome(edge.url)).toBe('ECONNREFUSED');
    expect(await udpPortFree(videoPort)).toBe(true);

    expect(both.alive()).toBe(true);
    expect((await serverInfo(both.url)).janus).toBe('server_info');
    const other = await open(both);
    const still = await other.createMountpoint(await other.attach('janus.plugin.streaming'), { admin_key: STREAMING_ADMIN_KEY });
    expect(still.streaming).toBe('created');
  });

  it('restart() brings a killed Janus back on the same port and ranges, its mountpoints gone', async () => {
    const ranges = [edge.rtpPortRange, edge.streamingPortRange];
    await edge.restart();
    expect(edge.alive()).toBe(true);
    expect([edge.rtpPortRange, edge.streamingPortRange]).toEqual(ranges);
    const client = await open(edge);
    const handle = await client.attach('janus.plugin.streaming');
    expect(killedMountpoint).toBeDefined();
    const info = await client.request({
      janus: 'message',
      session_id: handle.session,
      handle_id: handle.handle,
      body: { request: 'info', id: killedMountpoint },
    });
    // 455: no such mountpoint.
    expect(info.plugindata?.data.error_code).toBe(455);
    const created = await client.createMountpoint(handle);
    expect(inRange(mountpointPorts(created).a, edge.streamingPortRange ?? [0, -1])).toBe(true);
  });

  it('stop() after kill() is fine, and stopping again too', async () => {
    await edge.kill();
    await edge.kill();
    await edge.stop();
    await edge.stop();
    expect(edge.alive()).toBe(false);
    await expect(edge.restart()).rejects.toThrow(/stopped/);
  });
});
