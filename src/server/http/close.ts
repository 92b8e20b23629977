import { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** How long a refused client may keep sending after its answer, before the socket is destroyed. */
const LINGER_MS = 1_000;

/**
 * Closes the connection once the answer is out, without reading the rest of the body: the request
 * stays paused until then. Then a lingering close (as nginx does): our side sends FIN and discards
 * what the client still had in flight for at most LINGER_MS, because closing with unread bytes
 * sends a reset that can wipe the answer before the client reads it.
 */
export function closeAfterReply(req: FastifyRequest, reply: FastifyReply): void {
  const raw = req.raw;
  const socket = raw.socket;
  raw.unpipe();
  raw.pause();
  reply.raw.once('finish', () => {
    // app.inject's mock socket has nothing to close.
    if (!(socket instanceof Socket)) return;
    socket.end();
    raw.resume();
    const timer = setTimeout(() => socket.destroy(), LINGER_MS);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
  });
}
