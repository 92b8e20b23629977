import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { startTestServer } from '../../support/server.js';
import { connected, connectSocket, nextEvent } from '../../support/sockets.js';
import { eventually } from '../../support/wait.js';

describe('graceful shutdown', () => {
  it('finishes requests in flight, refuses new ones, closes sockets, then the database', async () => {
    const server = await startTestServer({ listen: false });
    const order: string[] = [];
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let arrived: () => void = () => {};
    const inFlight = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    server.app.get('/test/slow', async () => {
      arrived();
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
    await inFlight;

    const closing = server.app.close().then(() => order.push('app closed'));
    // Closing begins a moment after close(); from then on a new request is turned away (503) or
    // cannot connect at all. Polled until that holds (the test's timeout bounds it).
    let late: number | 'refused' = 200;
    await eventually(
      async () => {
        late = (await fetch(`${server.url}/healthz`).catch(() => null))?.status ?? 'refused';
        return late !== 200;
      },
      { intervalMs: 20 },
    );
    expect([503, 'refused']).toContain(late);
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
