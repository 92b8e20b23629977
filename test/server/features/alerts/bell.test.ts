import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BELL_LIMIT, type NotificationsAnswer, type ReadAnswer } from '../../../../src/domain/alerts.js';
import { NOTIFICATION_EVENT, type NotificationEvent } from '../../../../src/domain/realtime.js';
import { notifications } from '../../../../src/server/db/schema.js';
import { notifyUser } from '../../../../src/server/features/alerts/index.js';
import { messages } from '../../../../src/server/messages.js';
import { type Actor, buildBidder } from '../../../support/actors.js';
import { caller, startTestServer, type TestServer } from '../../../support/server.js';
import { connected, connectSocket, nextEvent } from '../../../support/sockets.js';

/**
 * The bell: a signed-in user reads their own notifications, newest first and capped, with their
 * unread count, and marks some or all read; nobody else's rows are read or touched. Each change
 * reaches the user's open pages as a `notification` event with the new count.
 */

let server: TestServer;
const call = caller(() => server);

beforeAll(async () => {
  server = await startTestServer();
}, 60_000);
afterAll(async () => server?.close());

async function ok<T>(res: LightMyRequestResponse, status = 200): Promise<T> {
  expect(res.statusCode, res.body).toBe(status);
  return res.json() as T;
}

/** `n` notifications of `who`, a minute apart, the last the newest. */
async function notes(who: Actor, n: number, label: string) {
  const now = Date.now();
  return server.ctx.db
    .insert(notifications)
    .values(
      Array.from({ length: n }, (_, i) => ({
        userId: who.id,
        kind: 'application_declined' as const,
        title: `${label} ${i + 1}`,
        url: '/vender',
        createdAt: new Date(now - (n - i) * 60_000),
      })),
    )
    .returning({ id: notifications.id });
}

describe('the bell', () => {
  it('lists only one’s own notifications, newest first, at most the cap, with the unread count of all', async () => {
    const [ana, beto] = [await buildBidder(server), await buildBidder(server)];
    await notes(ana, BELL_LIMIT + 5, 'Ana');
    await notes(beto, 2, 'Beto');
    const answer = await ok<NotificationsAnswer>(await call(ana, 'GET', '/api/notifications'));
    expect(answer.items).toHaveLength(BELL_LIMIT);
    expect(answer.unread).toBe(BELL_LIMIT + 5);
    expect(answer.items[0]).toMatchObject({ title: `Ana ${BELL_LIMIT + 5}`, kind: 'application_declined', url: '/vender', readAt: null });
    expect(answer.items.every((n) => n.title.startsWith('Ana'))).toBe(true);
    const times = answer.items.map((n) => n.createdAt);
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect((await call(null, 'GET', '/api/notifications')).statusCode).toBe(401);
  });

  it('marks the caller’s own as read, by id or all, ignores others’ ids, and tells the user’s pages the new count', async () => {
    const [ana, beto] = [await buildBidder(server), await buildBidder(server)];
    const mine = await notes(ana, 3, 'Ana');
    const theirs = await notes(beto, 1, 'Beto');
    const socket = connectSocket(server.url, { cookie: ana.cookie });
    try {
      await connected(socket);
      const heard = nextEvent<NotificationEvent>(socket, NOTIFICATION_EVENT);
      const ids = [mine[0]?.id, theirs[0]?.id] as string[];
      expect(await ok<ReadAnswer>(await call(ana, 'POST', '/api/notifications/read', { ids }))).toEqual({ unread: 2 });
      expect(await heard).toEqual({ unread: 2 });
    } finally {
      socket.close();
    }
    const [betoNote] = await server.ctx.db.select().from(notifications).where(eq(notifications.userId, beto.id));
    expect(betoNote?.readAt).toBeNull();
    const list = await ok<NotificationsAnswer>(await call(ana, 'GET', '/api/notifications'));
    expect(list.items.filter((n) => n.readAt !== null).map((n) => n.id)).toEqual([mine[0]?.id]);

    expect(await ok<ReadAnswer>(await call(ana, 'POST', '/api/notifications/read', { all: true }))).toEqual({ unread: 0 });
    expect(await ok<ReadAnswer>(await call(beto, 'GET', '/api/notifications'))).toMatchObject({ unread: 1 });
  });

  it('refuses bad input in Spanish: too many ids, a malformed id, an empty list, a huge body; signed out is 401', async () => {
    const ana = await buildBidder(server);
    const many = Array.from({ length: 101 }, () => randomUUID());
    const tooMany = await call(ana, 'POST', '/api/notifications/read', { ids: many });
    expect(tooMany.statusCode).toBe(400);
    expect(Object.values(tooMany.json().error.fields)).toContain(messages.alerts.fields.notificationIdsMax);
    const malformed = await call(ana, 'POST', '/api/notifications/read', { ids: ["x' or 1=1 --"] });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error.message).toBe(messages.errors.validation);
    expect((await call(ana, 'POST', '/api/notifications/read', { ids: [] })).statusCode).toBe(400);
    expect((await call(ana, 'POST', '/api/notifications/read', { all: false })).statusCode).toBe(400);
    const huge = await call(ana, 'POST', '/api/notifications/read', { ids: ['a'.repeat(100_000)] });
    expect(huge.statusCode).toBe(413);
    expect(huge.json().error.message).toBe(messages.errors.payloadTooLarge);
    expect((await call(null, 'POST', '/api/notifications/read', { all: true })).statusCode).toBe(401);
  });
});

describe('another feature’s notification', () => {
  it('is written once per call with notifyUser, and its event carries the new unread count', async () => {
    const ana = await buildBidder(server);
    await notes(ana, 1, 'Ana');
    const made = await server.ctx.db.transaction((tx) =>
      notifyUser(tx, { userId: ana.id, kind: 'application_approved', title: '¡Tu solicitud fue aprobada!', url: '/admin' }),
    );
    expect(made.id).not.toBeNull();
    expect(made.events).toEqual([{ type: 'notificationsChanged', unread: [{ userId: ana.id, unread: 2 }] }]);
    const [row] = await server.ctx.db
      .execute(sql`select count(*)::int as n from notifications where user_id = ${ana.id}::uuid`)
      .then((r) => (r as unknown as { rows: { n: number }[] }).rows);
    expect(row?.n).toBe(2);
  });
});
