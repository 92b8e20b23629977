import type { RealtimeServer } from './types.js';

/**
 * What the room's sends did: written straight to the socket with the shared frame, or handed to
 * Engine.IO because something of that socket's was still waiting in Engine.IO's own queue.
 */
export interface RoomFrameSends {
  direct: number;
  queued: number;
}

/** A `ws` WebSocket's readyState while open (WebSocket.OPEN). */
const WS_OPEN = 1;

/** The parts of an Engine.IO connection over `ws` that a shared frame needs (engine.io 6, ws 8). */
interface FrameTarget {
  readyState: string;
  writeBuffer: unknown[];
  transport: {
    name: string;
    writable: boolean;
    perMessageDeflate?: unknown;
    socket?: {
      readyState: number;
      _sender?: { _state?: number; _queue?: unknown[]; sendFrame?: (list: Buffer[], cb?: () => void) => void };
    };
  };
  write(data: string, options: object): void;
}

/**
 * Sends one event to this instance's sockets in a room (as `io.local.to(room).emit` does) with one
 * encoding and one WebSocket frame, header and payload in one buffer, shared by every socket: a
 * hot auction's room of ten thousand sockets costs a single write per socket and nothing else.
 * Socket.IO's own broadcast already encodes once, but then goes through Engine.IO's packet queue
 * for every socket (a packet object, two events, a header and a payload written apart, a callback
 * when the kernel took them), which is about a third more CPU than the write itself
 * (bench/README.md, `emitOverBare`).
 *
 * Order is kept: a socket gets the shared frame directly only when Engine.IO holds nothing of its
 * own for it (an empty queue, a writable transport), so everything Engine.IO wrote before is
 * already in the socket's stream ahead of it. Any other socket (one still upgrading, compressing,
 * or whose earlier writes are queued) gets the same frame through Engine.IO, behind what waits.
 * The event must be plain JSON (no binary attachments), as the public rooms' events are.
 */
export function emitToRoomHere(io: RealtimeServer, room: string, event: string, payload: unknown): RoomFrameSends {
  const sends: RoomFrameSends = { direct: 0, queued: 0 };
  const namespace = io.of('/');
  const ids = namespace.adapter.rooms.get(room);
  if (!ids || ids.size === 0) return sends;
  // Socket.IO's EVENT packet on the main namespace, without an ack id: `2["event",payload]`.
  const packet = `2${JSON.stringify([event, payload])}`;
  // In an Engine.IO message (type 4), as one unmasked final text frame.
  const body = Buffer.from(`4${packet}`);
  const header = textFrameHeader(body.length);
  const frame = Buffer.concat([header, body]);
  const preEncoded = { preEncoded: true, wsPreEncodedFrame: [header, body] };
  for (const id of ids) {
    const socket = namespace.sockets.get(id);
    if (!socket) continue;
    const conn = socket.conn as unknown as FrameTarget;
    if (conn.readyState !== 'open') continue;
    const transport = conn.transport;
    const sender = transport.socket?._sender;
    if (
      conn.writeBuffer.length === 0 &&
      transport.name === 'websocket' &&
      transport.writable &&
      !transport.perMessageDeflate &&
      transport.socket?.readyState === WS_OPEN &&
      sender?._state === 0 &&
      sender._queue?.length === 0 &&
      typeof sender.sendFrame === 'function'
    ) {
      sender.sendFrame([frame]);
      sends.direct++;
    } else {
      conn.write(packet, preEncoded);
      sends.queued++;
    }
  }
  return sends;
}

/** The header of a server's final, unmasked WebSocket text frame of `length` bytes (RFC 6455 §5.2). */
export function textFrameHeader(length: number): Buffer {
  if (length < 126) return Buffer.from([0x81, length]);
  if (length < 0x10000) {
    const header = Buffer.alloc(4);
    header[0] = 0x81;
    header[1] = 126;
    header.writeUInt16BE(length, 2);
    return header;
  }
  const header = Buffer.alloc(10);
  header[0] = 0x81;
  header[1] = 127;
  header.writeBigUInt64BE(BigInt(length), 2);
  return header;
}
