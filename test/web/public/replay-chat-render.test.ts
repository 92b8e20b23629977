import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { createElement, type ReactNode } from 'react';
import { prerender } from 'react-dom/static';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatMoney } from '../../../src/domain/money';
import type { ReplayChapter, ReplayChatLine, ReplayChatPage } from '../../../src/domain/replays';
import { createQueryClient } from '../../../src/web/api/query-client';
import { type PublicReplay, replayChatQueryOptions } from '../../../src/web/api/replay-viewing';
import { translate } from '../../../src/web/i18n';
import es from '../../../src/web/i18n/es-MX.json';
import type { ReplayVideo } from '../../../src/web/public/live/replay-chapters';
import { ReplayChat } from '../../../src/web/public/live/replay-chat';
import { ReplayPlayer } from '../../../src/web/public/live/replay-player';
import '../../../src/web/public/live-page';
import { theme } from '../../../src/web/theme';

/**
 * The show's chat beside its replay, rendered by the real components (server-side rendering: the
 * answers come from a fake fetch giving real Responses; the clock's moves are
 * replay-chat-lines.test.ts's): the 'Lotes' and 'Chat' tabs, the lines written by the video's
 * moment, and the chat's empty, waiting, unavailable and failed states.
 */

const SESSION_ID = '6f1c0c54-9a57-4a43-9d4c-0f1f4f9d5c11';
const CHAT_PATH = `/api/live-sessions/${SESSION_ID}/replay/chat`;
const r = es.live.replay;

afterEach(() => {
  vi.unstubAllGlobals();
});

const line = (seq: number, atMs: number, over: Partial<ReplayChatLine> = {}): ReplayChatLine => ({
  id: `00000000-0000-4000-8000-${String(seq).padStart(12, '0')}`,
  seq,
  kind: 'user',
  authorName: 'Sofía R.',
  authorIsModerator: false,
  text: `línea ${seq}`,
  system: null,
  createdAt: 1_900_000_000_000 + atMs,
  atMs,
  ...over,
});

const LINES: ReplayChatLine[] = [
  line(1, 2_000, { text: '¡Qué bonito reloj!' }),
  line(2, 9_000, { kind: 'announcement', authorName: 'Rita V.', authorIsModerator: true, text: 'Envío gratis hoy' }),
  line(3, 12_500, { text: '<b>hola</b>' }),
  line(4, 15_000, {
    kind: 'system',
    authorName: null,
    text: 'Reloj Seiko',
    system: { event: 'lotSold', lotId: 'l1', auctionName: 'Reloj Seiko', price: 1250, winnerName: 'Ju***' },
  }),
  line(5, 75_000, { text: 'todavía no' }),
];

/** The server: the replay's chat as `answer` says, every ask recorded. */
function serveChat(answer: { status: number; body: unknown }) {
  const fetchMock = vi.fn(async (_path: string) => new Response(JSON.stringify(answer.body), { status: answer.status }));
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const videoAt = (seconds: number): { current: ReplayVideo } => ({
  current: { currentTime: seconds, readyState: 1, play: () => undefined, addEventListener: () => undefined, removeEventListener: () => undefined },
});

/** Asks the chat's first page as the panel does when it opens (unless `ask` is false), then renders `node` with that answer. */
async function render(node: ReactNode, opts: { ask?: boolean } = {}): Promise<string> {
  const queryClient = createQueryClient();
  // A failed ask is shown as failed: the panel rendered after it, not a new mount that asks again.
  queryClient.setQueryDefaults(['replay-viewing'], { retryOnMount: false });
  if (opts.ask !== false) await queryClient.fetchInfiniteQuery({ ...replayChatQueryOptions(SESSION_ID), retry: false }).catch(() => undefined);
  const { prelude } = await prerender(createElement(MantineProvider, { theme }, createElement(QueryClientProvider, { client: queryClient }, node)));
  // Streaming markup marks where one text node ends and the next begins (`<!-- -->`); the text is the same without them.
  return (await new Response(prelude).text()).replaceAll('<!-- -->', '');
}

const chat = (seconds: number) => createElement(ReplayChat, { sessionId: SESSION_ID, video: videoAt(seconds) });
const shownLines = (html: string) => html.match(/data-testid="replay-chat-line"/g) ?? [];

describe('the chat beside the replay', () => {
  it('shows the lines written by the video’s moment, newest last, each with its moment, as the live chat draws them', async () => {
    const fetchMock = serveChat({ status: 200, body: { lines: LINES, next: null } satisfies ReplayChatPage });
    const html = await render(chat(15.2));
    expect(fetchMock).toHaveBeenCalledWith(CHAT_PATH, expect.anything());
    expect(html).toContain('data-state="lines"');
    const moments = [...html.matchAll(/data-testid="replay-chat-line" data-at-ms="(\d+)"/g)].map((m) => Number(m[1]));
    expect(moments).toEqual([2_000, 9_000, 12_500, 15_000]);
    const order = [
      '¡Qué bonito reloj!',
      'Envío gratis hoy',
      '&lt;b&gt;hola&lt;/b&gt;',
      translate('live.chat.system.lotSold', { winner: 'Ju***', price: formatMoney(1250) }),
    ];
    const at = order.map((text) => html.indexOf(text));
    expect(at.every((i) => i >= 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    // Typed markup is text, a moderator's line has its badge, a line's moment reads as the chapters' do.
    expect(html).not.toContain('<b>hola');
    expect(html).toContain(es.live.chat.moderator);
    expect(html).toMatch(/>0:12<\/span>/);
    expect(html).not.toContain('todavía no');
    expect(html).toContain(`aria-label="${r.chat.listLabel}"`);
    expect(html).not.toContain('data-mine');
    expect(html).not.toContain(es.live.chat.heldBack);
    expect(shownLines(html)).toHaveLength(4);
  });

  it('shows none of them before the first one’s moment, and says they will come', async () => {
    serveChat({ status: 200, body: { lines: LINES, next: null } });
    const html = await render(chat(1));
    expect(html).not.toContain('data-testid="replay-chat-line"');
    expect(html).toContain(r.chat.notYet);
  });

  it("says 'No hubo mensajes en el chat de este show.' when the show had none", async () => {
    serveChat({ status: 200, body: { lines: [], next: null } });
    const html = await render(chat(30));
    expect(html).toContain('data-state="empty"');
    expect(html).toContain(r.chat.empty);
    expect(r.chat.empty).toBe('No hubo mensajes en el chat de este show.');
  });

  it('says it is loading until its first page arrives', async () => {
    const fetchMock = serveChat({ status: 200, body: { lines: LINES, next: null } });
    const html = await render(chat(30), { ask: false });
    expect(html).toContain('data-state="loading"');
    expect(html).toContain(`aria-label="${es.common.loading}"`);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('says the chat is not available when the server has none for this replay (404), without Reintentar', async () => {
    serveChat({ status: 404, body: { error: { code: 'NOT_FOUND', message: 'Este show no tiene repetición.' } } });
    const html = await render(chat(30));
    expect(html).toContain('data-state="unavailable"');
    expect(html).toContain(r.chat.unavailable);
    expect(html).not.toContain(es.common.retry);
  });

  it("says it could not load, with 'Reintentar', when the server fails", async () => {
    serveChat({ status: 500, body: { error: { code: 'INTERNAL', message: 'Error' } } });
    const html = await render(chat(30));
    expect(html).toContain('data-state="failed"');
    expect(html).toContain('role="alert"');
    expect(html).toContain(es.live.chat.loadFailed);
    expect(html).toContain(es.common.retry);
  });

  it('shows that more lines are coming when the video is past the pages read so far', async () => {
    serveChat({ status: 200, body: { lines: LINES.slice(0, 2), next: '2' } });
    const html = await render(chat(600));
    expect(shownLines(html)).toHaveLength(2);
    expect(html).toContain(`aria-label="${r.chat.loadingMore}"`);
  });
});

const CHAPTERS: ReplayChapter[] = [
  { auctionId: '00000000-0000-4000-9000-000000000001', name: 'Reloj Omega', imageUrl: null, startMs: 4_000, endMs: 65_000, result: 'sold', price: 1250 },
];
const READY: PublicReplay & { url: string } = {
  status: 'ready',
  progress: 100,
  url: `/api/live-sessions/${SESSION_ID}/replay/video`,
  durationMs: 131_000,
  posterUrl: null,
  chapters: CHAPTERS,
};

describe("the replay's tabs", () => {
  it("open on 'Lotes' beside 'Chat', the chat not asked until it is opened", async () => {
    const fetchMock = serveChat({ status: 200, body: { lines: LINES, next: null } });
    const html = await render(createElement(ReplayPlayer, { sessionId: SESSION_ID, replay: READY, title: 'Relojes', search: '' }), { ask: false });
    const tabs = [...html.matchAll(/<button [^>]*role="tab"[^>]*>.*?<\/button>/gs)].map((m) => m[0]);
    expect(tabs).toHaveLength(2);
    expect(tabs[0]).toContain(r.tabs.lots);
    expect(tabs[0]).toContain('aria-selected="true"');
    expect(tabs[1]).toContain(r.tabs.chat);
    expect(tabs[1]).toContain('aria-selected="false"');
    expect(html).toContain('data-testid="replay-chapters"');
    expect(html).not.toContain('data-testid="replay-chat"');
    expect(fetchMock).not.toHaveBeenCalled();
    // The video comes first: the tabs follow it (under it on a phone, beside it wider).
    expect(html.indexOf('data-testid="replay-video"')).toBeLessThan(html.indexOf('role="tablist"'));
  });

  it('offer the chat alone, closed, for a replay without chapters', async () => {
    const fetchMock = serveChat({ status: 200, body: { lines: LINES, next: null } });
    const html = await render(createElement(ReplayPlayer, { sessionId: SESSION_ID, replay: { ...READY, chapters: [] }, title: 'Relojes', search: '' }), {
      ask: false,
    });
    const tabs = [...html.matchAll(/<button [^>]*role="tab"[^>]*>.*?<\/button>/gs)].map((m) => m[0]);
    expect(tabs).toHaveLength(1);
    expect(tabs[0]).toContain(r.tabs.chat);
    expect(tabs[0]).toContain('aria-selected="false"');
    expect(html).not.toContain('data-testid="replay-chapters"');
    expect(html).not.toContain('data-testid="replay-chat"');
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
