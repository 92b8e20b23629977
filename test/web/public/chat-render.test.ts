import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { createElement, type ReactNode } from 'react';
import { prerender } from 'react-dom/static';
import { describe, expect, it } from 'vitest';
import type { Me } from '../../../src/domain/api-types';
import type { ChatMe, ChatMessage, ChatPage } from '../../../src/domain/chat';
import { formatMoney } from '../../../src/domain/money';
import { chatKeys } from '../../../src/web/api/chat';
import { meKeys } from '../../../src/web/api/me';
import { createQueryClient } from '../../../src/web/api/query-client';
import es from '../../../src/web/i18n/es-MX.json';
import { ChatOverlay, ChatPanel } from '../../../src/web/public/chat/chat-slots';
import { theme } from '../../../src/web/theme';
// The live page adds its section of the catalogue (live.chat among it) when its module loads.
import '../../../src/web/public/live-page';

/**
 * The chat's states rendered by the real components (server-side rendering: no socket, no effects),
 * once the parts they load on demand (the composer's field, the moderators' tools) have arrived.
 * The browser walkthroughs (e2e/public/chat.spec.ts) cover the live updates and the refusals.
 */
const SESSION = '5d1f7c2a-8b3e-4f6a-9c0d-1e2f3a4b5c6d';
const c = es.live.chat;

const line = (seq: number, over: Partial<ChatMessage> = {}): ChatMessage => ({
  id: `00000000-0000-4000-8000-0000000000${String(seq).padStart(2, '0')}`,
  sessionId: SESSION,
  seq,
  kind: 'user',
  authorName: 'Sofía R.',
  authorTag: 'tag-sofia',
  authorIsModerator: false,
  text: `Línea ${seq}`,
  system: null,
  onlyAuthor: false,
  createdAt: 1_900_000_000_000 + seq,
  ...over,
});

const buyer: Me = {
  user: { id: 'u1', email: 'ana@example.com', displayName: 'Ana', avatarUrl: null },
  profile: {} as Me['profile'],
  roles: ['buyer'],
  companyId: 'u1',
  companyName: null,
  companyRecordsShows: true,
  profileComplete: true,
};

const chatMe = (over: Partial<ChatMe> = {}): ChatMe => ({ tag: 'tag-ana', canWrite: true, isModerator: false, isBlocked: false, ...over });

async function render(node: ReactNode, opts: { items: ChatMessage[]; me: Me | null; chat: ChatMe | null; page?: Partial<ChatPage> }): Promise<string> {
  const queryClient = createQueryClient();
  queryClient.setQueryData(meKeys.all, opts.me);
  const page: ChatPage = { items: opts.items, nextBefore: null, settings: { slowModeSeconds: 0, pinned: null }, me: opts.chat, ...opts.page };
  queryClient.setQueryData(chatKeys.lines(SESSION), { pages: [page], pageParams: [null] });
  const { prelude } = await prerender(createElement(MantineProvider, { theme }, createElement(QueryClientProvider, { client: queryClient }, node)));
  // Streaming markup marks where one text node ends and the next begins (`<!-- -->`); the text is the same without them.
  return (await new Response(prelude).text()).replaceAll('<!-- -->', '');
}

const overlay = (isEnded = false) => createElement(ChatOverlay, { sessionId: SESSION, isEnded });
const panel = (isEnded = false) => createElement(ChatPanel, { sessionId: SESSION, isEnded });

describe('the live chat', () => {
  it('shows typed HTML and links as text, never as markup', async () => {
    const typed = '<b>hola</b> <img src=x onerror=alert(1)> https://estafa.example';
    const html = await render(panel(), { items: [line(1, { text: typed })], me: buyer, chat: chatMe() });
    expect(html).toContain('&lt;b&gt;hola&lt;/b&gt; &lt;img src=x onerror=alert(1)&gt; https://estafa.example');
    expect(html).not.toContain('<b>hola');
    expect(html).not.toContain('href="https://estafa.example"');
  });

  it('reads signed out, and asks to sign in to write', async () => {
    const html = await render(overlay(), { items: [line(1)], me: null, chat: null });
    expect(html).toContain('Línea 1');
    expect(html).toContain(c.signIn);
    expect(html).not.toContain('data-testid="chat-input"');
    // Signed out, a line has no actions (not even 'Reportar').
    expect(html).not.toContain('data-testid="chat-line-actions"');
  });

  it('asks a buyer with an incomplete profile to complete it', async () => {
    const html = await render(overlay(), { items: [], me: { ...buyer, profileComplete: false }, chat: chatMe({ canWrite: false }) });
    expect(html).toContain(c.profile);
    expect(html).toContain(c.profileAction);
    expect(html).not.toContain('data-testid="chat-input"');
  });

  it('gives a buyer the composer, their own lines marked, and the actions of the others’ lines', async () => {
    const html = await render(panel(), { items: [line(1), line(2, { authorName: 'Ana R.', authorTag: 'tag-ana' })], me: buyer, chat: chatMe() });
    expect(html).toContain(`placeholder="${c.placeholder}"`);
    expect(html).toMatch(new RegExp(`Ana R\\.<span[^>]*> \\(${c.you}\\)`));
    expect(html).toContain(`aria-label="Opciones del mensaje de Sofía R."`);
    // No moderator tools for a buyer.
    expect(html).not.toContain(c.moderation.slowMode);
    expect(html).not.toContain(c.moderation.announce);
  });

  it("says what holds a muted, a blocked or a slowed reader's next line", async () => {
    const until = await render(overlay(), { items: [], me: buyer, chat: chatMe({ canWrite: false, mutedUntil: Date.now() + 300_000 }) });
    expect(until).toContain(c.mutedUntil.split('{{')[0]);
    const toEnd = await render(overlay(), { items: [], me: buyer, chat: chatMe({ canWrite: false, mutedUntil: null }) });
    expect(toEnd).toContain(c.mutedToEnd);
    const blocked = await render(overlay(), { items: [], me: buyer, chat: chatMe({ canWrite: false, isBlocked: true }) });
    expect(blocked).toContain(c.blocked);
    const slow = await render(overlay(), { items: [], me: buyer, chat: chatMe(), page: { settings: { slowModeSeconds: 10, pinned: null } } });
    expect(slow).toContain('Modo lento: un mensaje cada 10 s.');
  });

  it('renders the show’s own lines from the catalogue, announcements and the pinned line', async () => {
    const sold = line(3, {
      kind: 'system',
      authorName: null,
      authorTag: null,
      text: 'Tren de lámina',
      system: { event: 'lotSold', lotId: 'l1', auctionName: 'Tren de lámina', price: 920, winnerName: 'S***a' },
    });
    const opened = line(4, {
      kind: 'system',
      authorName: null,
      authorTag: null,
      text: 'Muñeca',
      system: { event: 'lotOpened', lotId: 'l2', auctionName: 'Muñeca', startingPrice: 300 },
    });
    const unsold = line(5, {
      kind: 'system',
      authorName: null,
      authorTag: null,
      text: 'Trompo',
      system: { event: 'lotUnsold', lotId: 'l3', auctionName: 'Trompo' },
    });
    const announcement = line(6, { kind: 'announcement', authorName: 'Lucía V.', authorIsModerator: true, text: 'Envíos gratis hoy' });
    const html = await render(overlay(), {
      items: [sold, opened, unsold, announcement],
      me: null,
      chat: null,
      page: { settings: { slowModeSeconds: 0, pinned: announcement } },
    });
    expect(html).toContain(`¡Vendido a S***a por ${formatMoney(920)}!`);
    expect(html).toContain(`En subasta: Muñeca, desde ${formatMoney(300)}`);
    expect(html).toContain('Trompo: sin venta');
    expect(html).toMatch(/data-kind="announcement"[^>]*data-testid="chat-pinned"/);
    expect(html).toMatch(new RegExp(`data-kind="announcement"[^>]*data-testid="chat-line".*${c.announcement}.*Envíos gratis hoy`));
    expect(html).toContain(c.moderator);
  });

  it('gives a moderator slow mode and announcements', async () => {
    const html = await render(panel(), { items: [line(1)], me: buyer, chat: chatMe({ isModerator: true }) });
    expect(html).toContain(c.moderation.slowMode);
    expect(html).toContain(c.moderation.announce);
    expect(html).toMatch(/<option value="30"[^>]*>30 s<\/option>/);
  });

  it('replays an ended show read-only', async () => {
    const html = await render(panel(true), { items: [line(1)], me: buyer, chat: chatMe({ canWrite: false, isModerator: true }) });
    expect(html).toContain('Línea 1');
    expect(html).toContain(c.ended);
    expect(html).not.toContain('data-testid="chat-input"');
    expect(html).not.toContain(c.moderation.slowMode);
  });
});
