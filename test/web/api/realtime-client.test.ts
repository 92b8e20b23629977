import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server, type Socket as ServerSocket } from 'socket.io';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket as NodeWebSocket, WebSocketServer } from 'ws';
import { type DisconnectReason, decodePacket, RealtimeSocket, reconnectDelay } from '../../../src/web/api/realtime-client';
import { sleep } from '../../support/wait.js';

/**
 * The page's own Socket.IO client (src/web/api/realtime-client.ts) against a real Socket.IO
 * server, websocket only as ours is (src/server/realtime), through the `ws` package's WebSocket.
 */
interface ServerEvents {
  news: (payload: { n: number }) => void;
  ask: (payload: string, ack: (answer: string) => void) => void;
}
interface ClientEvents {
  echo: (payload: { text: string }, ack: (answer: { text: string }) => void) => void;
  silent: (payload: number, ack: (answer: number) => void) => void;
  note: (payload: string) => void;
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function startServer(opts: { pingInterval?: number; pingTimeout?: number } = {}): Promise<{ io: Server; url: string }> {
  const http: HttpServer = createServer();
  const io = new Server(http, { path: '/socket.io', transports: ['websocket'], serveClient: false, ...opts });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise<void>((resolve) => io.close(() => resolve())));
  return { io, url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/` };
}

function client(url: string, delays = { reconnectionDelay: 20, reconnectionDelayMax: 40 }) {
  const socket = new RealtimeSocket<ServerEvents, ClientEvents>({
    path: '/socket.io',
    url,
    ...delays,
    WebSocket: NodeWebSocket as unknown as typeof WebSocket,
  });
  cleanups.push(() => {
    socket.disconnect();
  });
  return socket;
}

const once = <T extends unknown[]>(subscribe: (listener: (...args: T) => void) => void) =>
  new Promise<T>((resolve) => subscribe((...args: T) => resolve(args)));
const nextConnection = (io: Server) => once<[ServerSocket]>((listener) => io.once('connection', listener));

/** A client connected to `io`, and the server's side of it. */
async function connectedClient(io: Server, url: string) {
  const socket = client(url);
  const serverSide = nextConnection(io);
  const connected = once<[]>((listener) => socket.on('connect', listener));
  socket.connect();
  const [[remote]] = await Promise.all([serverSide, connected]);
  return { socket, remote };
}

describe('RealtimeSocket against a Socket.IO server', () => {
  it('connects, and carries events and acknowledgements both ways', async () => {
    const { io, url } = await startServer();
    io.on('connection', (socket) => {
      socket.on('echo', (payload: { text: string }, ack: (answer: { text: string }) => void) => ack({ text: `eco: ${payload.text}` }));
    });
    const { socket, remote } = await connectedClient(io, url);
    expect(socket.connected).toBe(true);

    const answer = await new Promise<{ text: string }>((resolve) => socket.emit('echo', { text: 'hola' }, resolve));
    expect(answer).toEqual({ text: 'eco: hola' });
    expect(await socket.timeout(1000).emitWithAck('echo', { text: 'ñandú 🦤' })).toEqual({ text: 'eco: ñandú 🦤' });

    const news = once<[{ n: number }]>((listener) => socket.on('news', listener));
    remote.emit('news', { n: 7 });
    expect(await news).toEqual([{ n: 7 }]);

    // The server asks, with an acknowledgement of its own.
    socket.on('ask', (payload, ack) => ack(`sí, ${payload}`));
    expect(await remote.timeout(1000).emitWithAck('ask', 'listo')).toBe('sí, listo');

    // A listener taken off hears nothing more.
    const heard: number[] = [];
    const listener = (payload: { n: number }) => heard.push(payload.n);
    socket.on('news', listener);
    remote.emit('news', { n: 1 });
    await new Promise<{ text: string }>((resolve) => socket.emit('echo', { text: 'x' }, resolve));
    socket.off('news', listener);
    remote.emit('news', { n: 2 });
    await new Promise<{ text: string }>((resolve) => socket.emit('echo', { text: 'y' }, resolve));
    expect(heard).toEqual([1]);
  });

  it('timeout(ms).emitWithAck rejects when no acknowledgement comes', async () => {
    const { io, url } = await startServer();
    io.on('connection', (socket) => socket.on('silent', () => {}));
    const { socket } = await connectedClient(io, url);
    await expect(socket.timeout(100).emitWithAck('silent', 1)).rejects.toThrow('operation has timed out');
  });

  it('an acknowledgement asked on a connection that drops fails at once instead of waiting forever', async () => {
    const { io, url } = await startServer();
    const heard: number[] = [];
    io.on('connection', (socket) => socket.on('silent', (n: number) => heard.push(n)));
    const { socket, remote } = await connectedClient(io, url);
    // Far longer than the test may take: only the disconnect can end it in time.
    const pending = socket.timeout(60_000).emitWithAck('silent', 1);
    const answered: number[] = [];
    socket.emit('silent', 2, (n) => answered.push(n));
    await expect.poll(() => heard).toEqual([1, 2]);
    remote.conn.close();
    await expect(pending).rejects.toThrow('socket has been disconnected');
    // The plain callback is dropped, never called with an answer that did not come.
    await expect.poll(() => socket.connected).toBe(true);
    expect(answered).toEqual([]);
  });

  it('disconnect() fails the acknowledgements still waiting for a connection', async () => {
    const { url } = await startServer();
    const socket = client(url);
    const pending = socket.timeout(60_000).emitWithAck('echo', { text: 'nunca enviado' });
    socket.disconnect();
    await expect(pending).rejects.toThrow('socket has been disconnected');
  });

  it('an acknowledgement asked while down waits for the next connection and gets its answer', async () => {
    const { io, url } = await startServer();
    io.on('connection', (socket) => {
      socket.on('echo', (payload: { text: string }, ack: (answer: { text: string }) => void) => ack({ text: `eco: ${payload.text}` }));
    });
    const { socket, remote } = await connectedClient(io, url);
    const down = once<[DisconnectReason]>((listener) => socket.on('disconnect', listener));
    remote.conn.close();
    await down;
    expect(await socket.timeout(5_000).emitWithAck('echo', { text: 'de vuelta' })).toEqual({ text: 'eco: de vuelta' });
  });

  it('a dropped connection reports "transport close", comes back by itself, and sends what was emitted meanwhile', async () => {
    const { io, url } = await startServer();
    const notes: string[] = [];
    io.on('connection', (socket) => socket.on('note', (text: string) => notes.push(text)));
    const socket = client(url);
    const reasons: DisconnectReason[] = [];
    socket.on('disconnect', (reason) => reasons.push(reason));
    let connects = 0;
    socket.on('connect', () => {
      connects += 1;
    });
    const first = nextConnection(io);
    socket.connect();
    const [remote] = await first;
    await expect.poll(() => connects).toBe(1);

    const second = nextConnection(io);
    const down = once<[DisconnectReason]>((listener) => socket.on('disconnect', listener));
    remote.conn.close();
    await down;
    expect(socket.connected).toBe(false);
    expect(socket.active).toBe(true);
    socket.emit('note', 'escrito sin conexión');
    await second;
    await expect.poll(() => connects).toBe(2);
    await expect.poll(() => notes).toEqual(['escrito sin conexión']);
    expect(reasons).toEqual(['transport close']);
  });

  it("the server's disconnect ends it: no retry of its own", async () => {
    const { io, url } = await startServer();
    const { socket, remote } = await connectedClient(io, url);
    let reconnected = false;
    io.on('connection', () => {
      reconnected = true;
    });
    const down = once<[DisconnectReason]>((listener) => socket.on('disconnect', listener));
    remote.disconnect(true);
    expect(await down).toEqual(['io server disconnect']);
    expect(socket.active).toBe(false);
    // Silence is the behaviour: a client that retried would be back well within this.
    await sleep(200);
    expect(reconnected).toBe(false);
  });

  it('disconnect() leaves the namespace; the server hears it as the client’s', async () => {
    const { io, url } = await startServer();
    const { socket, remote } = await connectedClient(io, url);
    const gone = once<[string, unknown]>((listener) => remote.on('disconnect', listener));
    const reasons: DisconnectReason[] = [];
    socket.on('disconnect', (reason) => reasons.push(reason));
    socket.disconnect();
    expect((await gone)[0]).toBe('client namespace disconnect');
    expect(reasons).toEqual(['io client disconnect']);
    expect(socket.active).toBe(false);
  });

  it("a refusal by the server's middleware is reported, and tried again", async () => {
    const { io, url } = await startServer();
    let refusals = 1;
    io.use((_socket, next) => {
      if (refusals-- > 0) next(new Error('base de datos caída'));
      else next();
    });
    const socket = client(url);
    const refused = once<[Error]>((listener) => socket.on('connect_error', listener));
    const connected = once<[]>((listener) => socket.on('connect', listener));
    socket.connect();
    expect((await refused)[0].message).toBe('base de datos caída');
    await connected;
    expect(socket.connected).toBe(true);
  });

  it('a server gone silent (no ping within pingInterval + pingTimeout) is a "ping timeout", then a new connection', async () => {
    // A websocket server that opens the Engine.IO session and then says nothing: no Socket.IO
    // server can be made to stop pinging, so this one stands in for a link that died silently.
    const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    cleanups.push(() => new Promise<void>((resolve) => wss.close(() => resolve())));
    let opened = 0;
    wss.on('connection', (ws) => {
      opened += 1;
      ws.send(`0${JSON.stringify({ sid: `s${opened}`, upgrades: [], pingInterval: 60, pingTimeout: 40, maxPayload: 1e6 })}`);
      ws.on('message', (data) => {
        if (String(data) === '40') ws.send(`40${JSON.stringify({ sid: `n${opened}` })}`);
      });
    });
    await new Promise((resolve) => wss.once('listening', resolve));
    const socket = client(`http://127.0.0.1:${(wss.address() as AddressInfo).port}/`);
    const down = once<[DisconnectReason]>((listener) => socket.on('disconnect', listener));
    socket.connect();
    expect(await down).toEqual(['ping timeout']);
    await expect.poll(() => opened).toBeGreaterThanOrEqual(2);
  });
});

describe('decodePacket', () => {
  it('reads type, acknowledgement id and data, on the main namespace or another', () => {
    expect(decodePacket('0{"sid":"abc"}')).toEqual({ type: '0', id: undefined, data: { sid: 'abc' } });
    expect(decodePacket('2["news",{"n":1}]')).toEqual({ type: '2', id: undefined, data: ['news', { n: 1 }] });
    expect(decodePacket('312[{"ok":true}]')).toEqual({ type: '3', id: 12, data: [{ ok: true }] });
    expect(decodePacket('2/admin,7["x"]')).toEqual({ type: '2', id: 7, data: ['x'] });
    expect(decodePacket('1')).toEqual({ type: '1', id: undefined, data: undefined });
    expect(() => decodePacket('2[broken')).toThrow();
  });
});

describe('reconnectDelay', () => {
  it('doubles from the base up to the cap, within ±50 %', () => {
    expect(reconnectDelay(0, 1000, 5000, 0.5)).toBe(1000);
    expect(reconnectDelay(1, 1000, 5000, 0.5)).toBe(2000);
    expect(reconnectDelay(5, 1000, 5000, 0.5)).toBe(5000);
    expect(reconnectDelay(0, 1000, 5000, 0)).toBe(500);
    expect(reconnectDelay(0, 1000, 5000, 1)).toBe(1500);
    // Never past the cap, even with the jitter upward.
    expect(reconnectDelay(9, 1000, 5000, 1)).toBe(5000);
  });
});
