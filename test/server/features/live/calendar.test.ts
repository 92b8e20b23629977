import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSession } from '../../../support/factories.js';
import { startTestServer, type TestServer } from '../../../support/server.js';

/** 'Agregar a mi calendario': GET /api/live-sessions/{id}/calendar.ics, public like the session's page. */
describe('a show in the buyer’s calendar', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ listen: false });
  }, 60_000);
  afterAll(async () => server?.close());

  it('answers anyone an iCalendar file with the show’s Mexico City time and its page', async () => {
    const session = await buildSession(server.ctx.db, {
      title: 'Relojes del viernes',
      sellerSlug: 'relojes',
      companyId: 'relojeria',
      scheduledAt: new Date(Date.UTC(2030, 0, 5, 2, 0)),
    });
    const res = await server.app.inject({ method: 'GET', url: `/api/live-sessions/${session.id}/calendar.ics` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="martillo-${session.id}.ics"`);
    const lines = res.body.replace(/\r\n /g, '').split('\r\n');
    expect(lines).toContain('DTSTART;TZID=America/Mexico_City:20300104T200000');
    const page = new URL(`/live/relojes/${session.id}`, server.ctx.config.publicUrl).toString();
    expect(lines).toContain(`URL:${page}`);
    expect(lines.find((l) => l.startsWith('SUMMARY:'))).toMatch(/^SUMMARY:Relojes del viernes/);
  });

  it('answers 404 in Spanish for a session that does not exist or a malformed id', async () => {
    for (const id of [crypto.randomUUID(), 'no-es-un-id']) {
      const res = await server.app.inject({ method: 'GET', url: `/api/live-sessions/${id}/calendar.ics` });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ error: { message: 'Sesión no encontrada' } });
    }
  });
});
