import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPLAY_CHAT_PAGE_SIZE, type ReplayChatLine, type ReplayChatPage } from '../../../../src/domain/replays.js';
import { chatMessages, liveSessions, replays } from '../../../../src/server/db/schema.js';
import { messages } from '../../../../src/server/messages.js';
import { type Actor, buildActor } from '../../../support/actors.js';
import { buildSession } from '../../../support/factories.js';
import { caller, startTestServer, type TestServer } from '../../../support/server.js';

/**
 * The show's chat beside its replay: each line the room saw, at the moment it was written on the
 * replay's own clock (the recording's segments joined, its pauses left out), for whoever may watch
 * the replay; a page at a time, in the chat's order.
 */

const COMPANY = 'chat-repetido';
let server: TestServer;
let seller: Actor;
let buyer: Actor;
let otherBuyer: Actor;
const call = caller(() => server);

beforeAll(async () => {
  server = await startTestServer({ listen: false });
  seller = await buildActor(server, { email: 'vende@chatrepite.mx', name: 'Rita Vendedora', roles: ['seller'], companyId: COMPANY });
  buyer = await buildActor(server, { email: 'sofia@ejemplo.mx', name: 'Sofía Ramírez', roles: ['buyer'], completeProfile: true });
  otherBuyer = await buildActor(server, { email: 'mario@ejemplo.mx', name: 'Mario Mirón', roles: ['buyer'], completeProfile: true });
}, 60_000);
afterAll(async () => {
  await server?.close();
});

const T = Date.now() - 3_600_000;
// Recorded for 10 s, paused 50 s, recorded 10 s more: the replay is 20 s long.
const TIMELINE = [
  { startedAt: T, durationMs: 10_000 },
  { startedAt: T + 60_000, durationMs: 10_000 },
];

/** An ended show with its replay as the replays job leaves it (the files are replay-access.test.ts's). */
async function showWithReplay(over: Partial<typeof replays.$inferInsert> = {}, opts: { rehearsal?: boolean } = {}) {
  const session = await buildSession(server.ctx.db, { companyId: COMPANY, sellerId: seller.id, status: 'ended', rehearsal: opts.rehearsal ?? false });
  await server.ctx.db.insert(replays).values({
    sessionId: session.id,
    status: 'ready',
    progress: 100,
    videoKey: `replays/${session.id}/replay.mp4`,
    durationMs: 20_000,
    chapters: [],
    timeline: TIMELINE,
    readyAt: new Date(),
    ...over,
  });
  return session;
}

type Line = Partial<typeof chatMessages.$inferInsert> & { at: number };
async function writeLines(sessionId: string, lines: Line[]) {
  return server.ctx.db
    .insert(chatMessages)
    .values(lines.map(({ at, ...line }) => ({ sessionId, authorId: buyer.id, authorName: 'Sofía R.', text: 'hola', ...line, createdAt: new Date(at) })))
    .returning();
}

const chatOf = async (who: Actor | null, sessionId: string, query = ''): Promise<ReplayChatPage> => {
  const res = await call(who, 'GET', `/api/live-sessions/${sessionId}/replay/chat${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

describe('the chat beside a replay', () => {
  it('gives each line the room saw its moment on the replay, leaving out what was written while nothing was recorded', async () => {
    const session = await showWithReplay();
    const [early, first, announcement, paused, second, sold, late] = await writeLines(session.id, [
      { at: T - 5_000, text: 'ya empieza?' },
      { at: T + 2_000, text: '¡Qué bonito reloj!' },
      { at: T + 9_000, kind: 'announcement', authorId: seller.id, authorName: 'Rita V.', authorIsModerator: true, text: 'Envío gratis hoy' },
      { at: T + 30_000, text: 'se congeló' },
      { at: T + 62_500, text: 'ya volvió' },
      {
        at: T + 65_000,
        kind: 'system',
        authorId: null,
        authorName: null,
        text: 'Reloj Seiko',
        system: { event: 'lotSold', lotId: randomUUID(), auctionName: 'Reloj Seiko', price: 1250, winnerName: 'Ju***' },
        systemKey: `sold:${randomUUID()}`,
      },
      { at: T + 600_000, text: 'gracias por el show' },
    ]);
    expect([early, paused, late].every(Boolean)).toBe(true);

    const expected: ReplayChatLine[] = [
      {
        id: first?.id as string,
        seq: first?.seq as number,
        kind: 'user',
        authorName: 'Sofía R.',
        authorIsModerator: false,
        text: '¡Qué bonito reloj!',
        system: null,
        createdAt: T + 2_000,
        atMs: 2_000,
      },
      { ...lineOf(announcement), kind: 'announcement', atMs: 9_000 },
      // Written 2.5 s into the second segment: after the first one's 10 s, the pause left out.
      { ...lineOf(second), atMs: 12_500 },
      { ...lineOf(sold), kind: 'system', system: sold?.system ?? null, atMs: 15_000 },
    ];
    for (const who of [null, otherBuyer, seller]) {
      const page = await chatOf(who, session.id);
      // The chat's own order (as the room read it), each with its moment; never who wrote it beyond the public name.
      expect(page).toEqual({ lines: expected, next: null });
      expect(JSON.stringify(page)).not.toMatch(/authorTag|authorId|onlyAuthor|sessionId/);
      expect(JSON.stringify(page)).not.toContain(buyer.id);
    }
  });

  it('leaves out a line a moderator removed and one held back for a muted word, as the live chat does for everyone', async () => {
    const session = await buildSession(server.ctx.db, { companyId: COMPANY, sellerId: seller.id, status: 'live' });
    const kept = await call(buyer, 'POST', `/api/live-sessions/${session.id}/chat`, { text: 'Me interesa el lote 3' });
    expect(kept.statusCode, kept.body).toBe(201);
    const removed = await call(otherBuyer, 'POST', `/api/live-sessions/${session.id}/chat`, { text: 'spam spam spam' });
    expect(removed.statusCode, removed.body).toBe(201);
    expect((await call(seller, 'DELETE', `/api/live-sessions/${session.id}/chat/${removed.json().id}`)).statusCode).toBeLessThan(300);
    await writeLines(session.id, [{ at: Date.now(), text: 'una palabra silenciada', onlyAuthor: true }]);
    await server.ctx.db.update(liveSessions).set({ status: 'ended' }).where(eq(liveSessions.id, session.id));
    await server.ctx.db.insert(replays).values({
      sessionId: session.id,
      status: 'ready',
      progress: 100,
      videoKey: `replays/${session.id}/replay.mp4`,
      durationMs: 120_000,
      timeline: [{ startedAt: Date.now() - 60_000, durationMs: 120_000 }],
      readyAt: new Date(),
    });
    for (const who of [null, buyer, seller]) {
      const { lines } = await chatOf(who, session.id);
      expect(lines.map((l) => l.text)).toEqual(['Me interesa el lote 3']);
      expect(lines[0]?.id).toBe(kept.json().id);
      expect(lines[0]?.atMs).toBeGreaterThan(55_000);
      expect(lines[0]?.atMs).toBeLessThan(70_000);
    }
  });

  it('comes a page at a time in the chat’s order, each page asking for the next', async () => {
    const session = await showWithReplay();
    const count = REPLAY_CHAT_PAGE_SIZE + 20;
    await writeLines(
      session.id,
      Array.from({ length: count }, (_, i) => ({ at: T + Math.floor((i * 10_000) / count), text: `línea ${i}` })),
    );
    const first = await chatOf(null, session.id);
    expect(first.lines).toHaveLength(REPLAY_CHAT_PAGE_SIZE);
    expect(first.next).toBe(String(first.lines.at(-1)?.seq));
    const second = await chatOf(null, session.id, `?after=${first.next}`);
    expect(second.lines).toHaveLength(20);
    expect(second.next).toBeNull();
    const all = [...first.lines, ...second.lines];
    expect(all.map((l) => l.text)).toEqual(Array.from({ length: count }, (_, i) => `línea ${i}`));
    const moments = all.map((l) => l.atMs);
    expect(moments).toEqual([...moments].sort((a, b) => a - b));
    expect(moments.at(-1)).toBeLessThanOrEqual(10_000);
  });

  it('is an empty page for a replay whose show had no chat', async () => {
    const session = await showWithReplay();
    expect(await chatOf(null, session.id)).toEqual({ lines: [], next: null });
  });
});

describe('who may read the chat beside a replay', () => {
  it('is 404 to everyone but its editors while the replay is hidden, and to everyone for a rehearsal’s but them', async () => {
    const hidden = await showWithReplay({ visibility: 'hidden' });
    await writeLines(hidden.id, [{ at: T + 1_000, text: 'solo lo ve el vendedor' }]);
    for (const who of [null, buyer]) {
      const res = await call(who, 'GET', `/api/live-sessions/${hidden.id}/replay/chat`);
      expect(res.statusCode).toBe(404);
      expect(res.json().error.message).toBe(messages.replays.notFound);
    }
    expect((await chatOf(seller, hidden.id)).lines.map((l) => l.text)).toEqual(['solo lo ve el vendedor']);

    const rehearsal = await showWithReplay({}, { rehearsal: true });
    expect((await call(null, 'GET', `/api/live-sessions/${rehearsal.id}/replay/chat`)).statusCode).toBe(404);
    expect((await chatOf(seller, rehearsal.id)).lines).toEqual([]);
  });

  it('is 404 while the replay is recorded, made or failed, without a replay, and for one made before its timeline was kept', async () => {
    const cases = [
      await showWithReplay({ status: 'recording', progress: 0, videoKey: null, timeline: null }),
      await showWithReplay({ status: 'processing', progress: 40, videoKey: null, timeline: null }),
      await showWithReplay({ status: 'failed', error: 'ffmpeg terminó con el código 1' }),
      await showWithReplay({ timeline: null }),
      await buildSession(server.ctx.db, { companyId: COMPANY, sellerId: seller.id, status: 'ended' }),
    ];
    for (const session of cases) {
      await writeLines(session.id, [{ at: T + 1_000 }]);
      for (const who of [null, buyer]) {
        const res = await call(who, 'GET', `/api/live-sessions/${session.id}/replay/chat`);
        expect(res.statusCode, session.id).toBe(404);
        expect(res.json().error.message).toBe(messages.replays.notFound);
      }
    }
  });

  it('answers a missing or malformed show with 404 and a malformed page with 400, never a 5xx', async () => {
    for (const id of [randomUUID(), 'no-es-un-id', '..%2F..%2Fetc%2Fpasswd', "1' or '1'='1"]) {
      const res = await call(null, 'GET', `/api/live-sessions/${encodeURI(id)}/replay/chat`);
      expect(res.statusCode, id).toBe(404);
      expect(res.json().error.message).toBe(messages.live.sessionNotFound);
    }
    expect((await call(null, 'GET', `/api/live-sessions/${'a'.repeat(80)}/replay/chat`)).statusCode).toBe(400);
    const session = await showWithReplay();
    for (const after of ['abc', '-1', '1.5', '9'.repeat(40), '', '%00']) {
      const res = await call(null, 'GET', `/api/live-sessions/${session.id}/replay/chat?after=${after}`);
      expect(res.statusCode, after).toBe(400);
      expect(res.json().error.message).toBe(messages.errors.validation);
    }
    // A line number past the last one is simply the end.
    expect(await chatOf(null, session.id, `?after=${'9'.repeat(15)}`)).toEqual({ lines: [], next: null });
  });
});

/** The fields every line carries, from its row. */
function lineOf(row: typeof chatMessages.$inferSelect | undefined): ReplayChatLine {
  if (!row) throw new Error('no line');
  return {
    id: row.id,
    seq: row.seq,
    kind: 'user',
    authorName: row.authorName,
    authorIsModerator: row.authorIsModerator,
    text: row.text,
    system: null,
    createdAt: row.createdAt.getTime(),
    atMs: 0,
  };
}
