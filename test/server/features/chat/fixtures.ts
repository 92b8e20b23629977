import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import type { Socket } from 'socket.io-client';
import { expect } from 'vitest';
import type { SessionStatusEvent } from '../../../../src/domain/realtime.js';
import { auditLog, chatWriters } from '../../../../src/server/db/schema.js';
import { type Actor, buildActor } from '../../../support/actors.js';
import { buildSession } from '../../../support/factories.js';
import type { TestServer } from '../../../support/server.js';
import { connected, connectSocket, eventMatching } from '../../../support/sockets.js';

/** What the chat suites share: a show with its owners, the chat's URLs, time passing for the pace rule, and sockets in the room. */

export const chatUrl = (sessionId: string) => `/api/live-sessions/${sessionId}/chat`;

export interface Show {
  sessionId: string;
  companyId: string;
  seller: Actor;
  admin: Actor;
}

/** A live show of a new company, with its seller and a company admin. */
export async function buildShow(server: Pick<TestServer, 'ctx'>, over: { status?: 'scheduled' | 'live' | 'ended'; companyId?: string } = {}): Promise<Show> {
  const companyId = over.companyId ?? `chat-${randomUUID().slice(0, 8)}`;
  const seller = await buildActor(server, { email: `vende-${randomUUID().slice(0, 6)}@${companyId}.mx`, name: 'Vera Vendedora', roles: ['seller'], companyId });
  const admin = await buildActor(server, { email: `jefa-${randomUUID().slice(0, 6)}@${companyId}.mx`, name: 'Julia Jefa', roles: ['admin'], companyId });
  const session = await buildSession(server.ctx.db, { sellerId: seller.id, companyId, status: over.status ?? 'live' });
  return { sessionId: session.id, companyId, seller, admin };
}

/** The writer's last line is `seconds` older, as if that time had passed (the pace rule reads the database's clock). */
export async function agePace(server: Pick<TestServer, 'ctx'>, sessionId: string, userId: string, seconds: number): Promise<void> {
  await server.ctx.db
    .update(chatWriters)
    .set({ lastAt: sql`${chatWriters.lastAt} - (${seconds}::float8 * interval '1 second')` })
    .where(and(eq(chatWriters.sessionId, sessionId), eq(chatWriters.userId, userId)));
}

export function expectError(res: LightMyRequestResponse, status: number, code: string): { code: string; message: string; fields?: Record<string, string> } {
  expect(res.statusCode, res.body).toBe(status);
  const { error } = res.json() as { error: { code: string; message: string; fields?: Record<string, string> } };
  expect(error.code).toBe(code);
  return error;
}

/** The audit rows of a session with this action. */
export async function auditsOf(server: Pick<TestServer, 'ctx'>, sessionId: string, action: string) {
  return server.ctx.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.entityId, sessionId), eq(auditLog.action, action)));
}

/** A real Socket.IO client (signed in when given a cookie) in the session's room. */
export async function viewerIn(server: Pick<TestServer, 'url'>, sessionId: string, open: Socket[], cookie?: string): Promise<Socket> {
  const socket = connectSocket(server.url, cookie ? { cookie } : {});
  open.push(socket);
  await connected(socket);
  const ack = await socket.emitWithAck('joinSession', { sessionId });
  expect(ack).toMatchObject({ ok: true });
  return socket;
}

let markers = 0;

/**
 * Waits until everything the server sent to the session's room so far has reached `socket`: a
 * marker goes to the room after it, and one instance's events arrive in order. A test then knows
 * that an event the socket has not seen will not come.
 */
export async function settled(server: Pick<TestServer, 'ctx'>, socket: Socket, sessionId: string): Promise<void> {
  const marker: SessionStatusEvent = { sessionId: `chat-marker-${++markers}`, status: 'live', version: 0 };
  const arrived = eventMatching<SessionStatusEvent>(socket, 'sessionStatusUpdate', (e) => e.sessionId === marker.sessionId);
  server.ctx.realtime.toSession(sessionId, 'sessionStatusUpdate', marker);
  await arrived;
}
