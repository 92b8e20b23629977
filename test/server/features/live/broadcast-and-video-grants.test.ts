import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveSessionDetail, LiveSessionPrivate } from '../../../../src/domain/live.js';
import type { SessionStatusEvent, ViewerCountEvent } from '../../../../src/domain/realtime.js';
import type { VideoGrant } from '../../../../src/domain/video.js';
import { contentSecurityPolicy } from '../../../../src/server/app.js';
import { auditLog, liveSessions } from '../../../../src/server/db/schema.js';
import { type Actor, buildActor } from '../../../support/actors.js';
import { buildSession } from '../../../support/factories.js';
import { injectAs, startTestServer, type TestServer } from '../../../support/server.js';
import { connected, connectSocket, eventMatching } from '../../../support/sockets.js';

/**
 * Broadcasting on the server: 'Iniciar' and 'Detener' (SPEC §4), the video grants, the CSP per
 * provider, and the Live Hub's own tab left out of the viewer count.
 */

const COMPANY = 'video-sala';
let server: TestServer;
let seller: Actor;
let buyer: Actor;
let outsider: Actor;

beforeAll(async () => {
  server = await startTestServer({ env: { VIDEO_BIND_ADDRESS: '127.0.0.1', ICE_SERVERS: 'stun:stun.example.com:3478' } });
  seller = await buildActor(server, { email: 'vende@video-sala.mx', name: 'Vera Vende', roles: ['seller'], companyId: COMPANY });
  buyer = await buildActor(server, { email: 'compra@video.mx', name: 'Carlos Compra', roles: ['buyer'] });
  outsider = await buildActor(server, { email: 'otro@otra.mx', name: 'Otto Otro', roles: ['seller'], companyId: 'otra' });
}, 60_000);
afterAll(async () => server?.close());

const post = (url: string, actor: Actor | null) =>
  server.app.inject({ method: 'POST', url, headers: { origin: server.url, ...(actor ? { cookie: actor.cookie } : {}) } });
const get = (url: string, actor: Actor | null) => server.app.inject({ method: 'GET', url, headers: actor ? { cookie: actor.cookie } : {} });

describe('starting and stopping a broadcast', () => {
  it('sets live with the provider and a start time, then scheduled with a stop time; the room hears both', async () => {
    const session = await buildSession(server.ctx.db, { sellerId: seller.id, companyId: COMPANY, status: 'scheduled' });
    const viewer = connectSocket(server.url);
    await connected(viewer);
    await new Promise((resolve) => viewer.emit('joinSession', { sessionId: session.id }, resolve));

    const live = eventMatching<SessionStatusEvent>(viewer, 'sessionStatusUpdate', (e) => e.sessionId === session.id && e.status === 'live');
    const started = await post(`/api/live-sessions/${session.id}/stream/start`, seller);
    expect(started.statusCode, started.body).toBe(200);
    const detail = started.json() as LiveSessionDetail;
    expect(detail.session).toMatchObject({ status: 'live', streamType: 'embedded', broadcasting: true });
    await live;

    const stopped = eventMatching<SessionStatusEvent>(viewer, 'sessionStatusUpdate', (e) => e.sessionId === session.id && e.status === 'scheduled');
    const stop = await post(`/api/live-sessions/${session.id}/stream/stop`, seller);
    expect(stop.statusCode, stop.body).toBe(200);
    expect((stop.json() as LiveSessionDetail).session).toMatchObject({ status: 'scheduled', broadcasting: false });
    await stopped;

    const [row] = await server.ctx.db.select().from(liveSessions).where(eq(liveSessions.id, session.id));
    expect(row?.lastStreamStart).toBeInstanceOf(Date);
    expect(row?.lastStreamStop?.getTime()).toBeGreaterThanOrEqual(row?.lastStreamStart?.getTime() ?? Number.POSITIVE_INFINITY);
    const actions = (await server.ctx.db.select().from(auditLog).where(eq(auditLog.entityId, session.id))).map((a) => a.action);
    expect(actions).toEqual(expect.arrayContaining(['live_session.stream_start', 'live_session.stream_stop']));
    viewer.close();
  });

  it('keeps an ended session ended when the camera stops after the show closed', async () => {
    const session = await buildSession(server.ctx.db, { sellerId: seller.id, companyId: COMPANY, status: 'ended' });
    const res = await post(`/api/live-sessions/${session.id}/stream/stop`, seller);
    expect((res.json() as LiveSessionDetail).session.status).toBe('ended');
  });

  it('stops, for a page that went, only the broadcast that page started: one started since carries on', async () => {
    const session = await buildSession(server.ctx.db, { sellerId: seller.id, companyId: COMPANY, status: 'scheduled' });
    const stop = (body: unknown) => injectAs(server, seller, 'POST', `/api/live-sessions/${session.id}/stream/stop`, body);
    // The first tab went live a minute ago; another tab of the seller started again since.
    await post(`/api/live-sessions/${session.id}/stream/start`, seller);
    const firstStart = new Date(Date.now() - 60_000);
    await server.ctx.db.update(liveSessions).set({ lastStreamStart: firstStart }).where(eq(liveSessions.id, session.id));
    const again = (await post(`/api/live-sessions/${session.id}/stream/start`, seller)).json() as LiveSessionDetail;
    const secondStart = (again.session as LiveSessionPrivate).lastStreamStart;
    expect(secondStart).toBeGreaterThan(firstStart.getTime());

    // The first tab closes: its stop names its own start, and changes nothing.
    const stale = await stop({ startedAt: firstStart.getTime() });
    expect(stale.statusCode, stale.body).toBe(200);
    expect((stale.json() as LiveSessionDetail).session).toMatchObject({ status: 'live', broadcasting: true });
    expect((await stop({ startedAt: 'ayer' })).statusCode).toBe(400);
    // The second tab closes: its broadcast stops.
    const own = await stop({ startedAt: secondStart });
    expect((own.json() as LiveSessionDetail).session).toMatchObject({ status: 'scheduled', broadcasting: false });
  });

  it('refuses anyone but the session’s editors, changing nothing', async () => {
    const session = await buildSession(server.ctx.db, { sellerId: seller.id, companyId: COMPANY, status: 'scheduled' });
    expect((await post(`/api/live-sessions/${session.id}/stream/start`, null)).statusCode).toBe(401);
    expect((await post(`/api/live-sessions/${session.id}/stream/start`, buyer)).statusCode).toBe(403);
    expect((await post(`/api/live-sessions/${session.id}/stream/start`, outsider)).statusCode).toBe(404);
    const [row] = await server.ctx.db.select().from(liveSessions).where(eq(liveSessions.id, session.id));
    expect(row).toMatchObject({ status: 'scheduled', lastStreamStart: null, streamType: 'none' });
  });
});

describe('video grants', () => {
  it('grants publishing to the session’s editors only and watching to anyone, with the ICE servers', async () => {
    const session = await buildSession(server.ctx.db, { sellerId: seller.id, companyId: COMPANY });
    const publisher = await get(`/api/live-sessions/${session.id}/video?role=publisher`, seller);
    expect(publisher.statusCode, publisher.body).toBe(200);
    expect(publisher.json() as VideoGrant).toEqual({ provider: 'embedded', role: 'publisher', iceServers: [{ urls: 'stun:stun.example.com:3478' }] });

    expect((await get(`/api/live-sessions/${session.id}/video?role=publisher`, null)).statusCode).toBe(401);
    expect((await get(`/api/live-sessions/${session.id}/video?role=publisher`, buyer)).statusCode).toBe(403);
    expect((await get(`/api/live-sessions/${session.id}/video?role=publisher`, outsider)).statusCode).toBe(404);
    for (const actor of [null, buyer, outsider, seller]) {
      const res = await get(`/api/live-sessions/${session.id}/video?role=subscriber`, actor);
      expect(res.statusCode).toBe(200);
      expect((res.json() as VideoGrant).role).toBe('subscriber');
    }
  });

  it('answers a bad role or viewer id with a Spanish 400 and an unknown session with 404', async () => {
    const session = await buildSession(server.ctx.db, { sellerId: seller.id, companyId: COMPANY });
    const bad = await get(`/api/live-sessions/${session.id}/video?role=admin`, seller);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields.role).toBe('Indica si vas a transmitir (publisher) o a ver (subscriber).');
    const badViewer = await get(`/api/live-sessions/${session.id}/video?role=subscriber&viewer=yo`, null);
    expect(badViewer.statusCode).toBe(400);
    expect(badViewer.json().error.fields.viewer).toBe('La página envió un identificador de espectador no válido. Recárgala.');
    const named = await get(`/api/live-sessions/${session.id}/video?role=subscriber&viewer=${randomUUID()}`, null);
    expect(named.statusCode).toBe(200);
    expect((await get('/api/live-sessions/00000000-0000-4000-8000-000000000000/video?role=subscriber', null)).statusCode).toBe(404);
    expect((await get('/api/live-sessions/no-es-un-id/video?role=subscriber', null)).statusCode).toBe(404);
  });
});

describe('the Live Hub’s own tab', () => {
  it('is not counted as a viewer', async () => {
    const session = await buildSession(server.ctx.db, { sellerId: seller.id, companyId: COMPANY });
    const hub = connectSocket(server.url, { cookie: seller.cookie });
    const viewer = connectSocket(server.url);
    await Promise.all([connected(hub), connected(viewer)]);
    const counted = eventMatching<ViewerCountEvent>(hub, 'viewerCount', (e) => e.sessionId === session.id && e.count === 1);
    await new Promise((resolve) => hub.emit('joinSession', { sessionId: session.id, host: true }, resolve));
    await new Promise((resolve) => viewer.emit('joinSession', { sessionId: session.id }, resolve));
    await counted;
    expect(server.ctx.realtime.viewerCount(session.id)).toBe(1);
    hub.close();
    viewer.close();
  });
});

describe('the content security policy', () => {
  it('opens connect-src and media-src only to the provider’s origins', () => {
    expect(contentSecurityPolicy([])).toContain("connect-src 'self';");
    const csp = contentSecurityPolicy(['wss://janus.example.com']);
    expect(csp).toContain("connect-src 'self' wss://janus.example.com");
    expect(csp).toContain("media-src 'self' blob: wss://janus.example.com");
  });
});
