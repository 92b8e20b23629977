import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { startTestServer } from '../support/server.js';
import { connected, connectSocket, nextEvent } from '../support/sockets.js';

describe('graceful shutdown', () => {
  it('finishes requests in flight, refuses new ones, closes sockets, then the database', async () => {
    const server = await startTestServer({ listen: false });
    const order: string[] = [];
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    server.app.get('/test/slow', async () => {
      await gate;
      // The database is still open while a request is in flight.
      await server.ctx.db.execute(sql`select 1`);
      order.push('request finished');
      return { done: true };
    });
    const port = Number(new URL(server.url).port);
    await server.app.listen({ port, host: '127.0.0.1' });

    const socket = connectSocket(server.url);
    await connected(socket);
    const socketClosed = nextEvent(socket, 'disconnect', 10_000).then(() => order.push('socket closed'));
    const slow = fetch(`${server.url}/test/slow`).then(async (r) => ({ status: r.status, body: await r.json() }));
    await new Promise((r) => setTimeout(r, 100));

    const closing = server.app.close().then(() => order.push('app closed'));
    await new Promise((r) => setTimeout(r, 100));
    // Once closing has begun a new request is turned away (503) or cannot connect at all.
    const late = await fetch(`${server.url}/healthz`).catch(() => null);
    expect(late?.status ?? 'refused').not.toBe(200);
    expect(socket.connected).toBe(true);
    release();

    expect(await slow).toEqual({ status: 200, body: { done: true } });
    await closing;
    await socketClosed;
    expect(order).toEqual(['request finished', 'socket closed', 'app closed']);
    // The app did not own this test database; closing it is the test's job.
    await server.database.destroy();
  });
});
