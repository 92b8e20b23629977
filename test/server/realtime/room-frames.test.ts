import { randomUUID } from 'node:crypto';
import type { Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { emitToRoomHere, textFrameHeader } from '../../../src/server/realtime/room-frames.js';
import { rooms } from '../../../src/server/realtime/rooms.js';
import { startTestServer, type TestServer } from '../../support/server.js';
import { connected, connectSocket, nextEvent } from '../../support/sockets.js';

/**
 * A public room's shared frame: every socket of the room on this instance gets the event as
 * Socket.IO would have sent it, byte for byte; a socket whose earlier messages Engine.IO still
 * holds gets it behind them; sockets outside the room get nothing.
 */
describe("a room's event sent as one shared frame", () => {
  let server: TestServer;
  const open: { close(): void }[] = [];

  beforeAll(async () => {
    server = await startTestServer();
  }, 60_000);
  afterEach(() => {
    for (const s of open.splice(0)) s.close();
  });
  afterAll(async () => server?.close());

  const io = () => server.ctx.realtime.io;
  /** Socket.IO's own emit to one room, untyped: these tests send made-up payloads under a real event's name. */
  const emitVia = (room: string) => io().local.to(room) as unknown as { emit(event: string, payload: unknown): boolean };

  async function inRoom(room: string): Promise<Socket> {
    const socket = connectSocket(server.url);
    open.push(socket);
    await connected(socket);
    io()
      .in(socket.id as string)
      .socketsJoin(room);
    return socket;
  }

  /** A bare WebSocket speaking Engine.IO 4 / Socket.IO 5 by hand, to see the text each frame carried. */
  async function rawInRoom(room: string): Promise<{ texts: string[] }> {
    const ws = new WebSocket(`${server.url.replace('http', 'ws')}/socket.io/?EIO=4&transport=websocket`);
    open.push({ close: () => ws.terminate() });
    const texts: string[] = [];
    const sid = await new Promise<string>((resolve, reject) => {
      ws.on('message', (data: Buffer) => {
        const text = data.toString();
        if (text.startsWith('0')) return ws.send('40');
        if (text.startsWith('40')) return resolve((JSON.parse(text.slice(2)) as { sid: string }).sid);
        if (text === '2') return ws.send('3');
        texts.push(text);
      });
      ws.once('error', reject);
    });
    io().in(sid).socketsJoin(room);
    return { texts };
  }

  it("reaches every socket in the room, at each of the frame header's three lengths, and no socket outside it", async () => {
    const room = rooms.auction(randomUUID());
    const inside = [await inRoom(room), await inRoom(room), await inRoom(room)];
    const outside = await inRoom(rooms.auction(randomUUID()));
    const heardOutside: unknown[] = [];
    outside.on('auctionState', (payload: unknown) => heardOutside.push(payload));

    // Under 126 bytes, under 64 KiB, and over it: the three ways a frame says its length.
    for (const note of ['', 'x'.repeat(500), 'ñ'.repeat(40_000)]) {
      const payload = { state: { id: 'a', version: note.length }, bids: [], note };
      const arrivals = inside.map((s) => nextEvent(s, 'auctionState'));
      const sends = emitToRoomHere(io(), room, 'auctionState', payload);
      expect(await Promise.all(arrivals)).toEqual([payload, payload, payload]);
      expect(sends.direct + sends.queued).toBe(3);
    }
    // The room's one event after them reached the other room's socket neither.
    const marker = nextEvent(outside, 'auctionState');
    emitToRoomHere(io(), rooms.auction('otra'), 'auctionState', { marker: true });
    emitVia(outside.id as string).emit('auctionState', { last: true });
    expect(await marker).toEqual({ last: true });
    expect(heardOutside).toEqual([{ last: true }]);
  });

  it('writes the same text Socket.IO writes for the same event', async () => {
    const room = rooms.auction(randomUUID());
    const raw = await rawInRoom(room);
    const payload = { state: { id: 'a', version: 7, name: 'Reloj "antiguo" — 1920' }, bids: [{ seq: 1, amount: 1500 }] };
    emitVia(room).emit('auctionState', payload);
    emitToRoomHere(io(), room, 'auctionState', payload);
    await expect.poll(() => raw.texts.length).toBe(2);
    expect(raw.texts[1]).toBe(raw.texts[0]);
    expect(raw.texts[0]).toBe(`42${JSON.stringify(['auctionState', payload])}`);
  });

  it('goes behind what Engine.IO still holds for a socket, and straight to the socket once it holds nothing', async () => {
    const room = rooms.auction(randomUUID());
    const socket = await inRoom(room);
    const heard: unknown[] = [];
    socket.onAny((_event: string, payload: unknown) => heard.push(payload));
    const own = emitVia(socket.id as string);

    // The first write leaves the transport busy until the kernel has it, so the second waits in
    // Engine.IO's queue: the room's event must not overtake it.
    own.emit('auctionState', { n: 1 });
    own.emit('auctionState', { n: 2 });
    const behind = emitToRoomHere(io(), room, 'auctionState', { n: 3 });
    own.emit('auctionState', { n: 4 });
    expect(behind).toEqual({ direct: 0, queued: 1 });
    await expect.poll(() => heard.length).toBe(4);
    expect(heard).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }, { n: 4 }]);

    // Once everything was written, the shared frame goes straight to the socket, still in order.
    const direct = emitToRoomHere(io(), room, 'auctionState', { n: 5 });
    own.emit('auctionState', { n: 6 });
    expect(direct).toEqual({ direct: 1, queued: 0 });
    await expect.poll(() => heard.length).toBe(6);
    expect(heard.slice(4)).toEqual([{ n: 5 }, { n: 6 }]);
  });

  it('frames lengths as RFC 6455 says', () => {
    expect([...textFrameHeader(125)]).toEqual([0x81, 125]);
    expect([...textFrameHeader(126)]).toEqual([0x81, 126, 0, 126]);
    expect([...textFrameHeader(65_535)]).toEqual([0x81, 126, 0xff, 0xff]);
    expect([...textFrameHeader(65_536)]).toEqual([0x81, 127, 0, 0, 0, 0, 0, 1, 0, 0]);
  });
});
