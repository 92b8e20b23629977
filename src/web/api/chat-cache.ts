import type { InfiniteData } from '@tanstack/react-query';
import type { ChatMe, ChatMessage, ChatPage, ChatSettings } from '../../domain/chat.js';
import type { ChatStandingEvent } from '../../domain/realtime.js';

/**
 * How a show's chat cache takes in what arrives between fetches: lines (from the room and from a
 * send's answer, often both), removals, settings and the reader's standing. Pure, so the rules
 * (one copy of each line, in `seq` order, removals that stick, earlier pages) are unit-tested.
 */

/**
 * A page as the cache holds it: the API's page, and on the latest one the ids of the lines removed
 * since it was read, so that nothing (a refetch, the reconciliation of a later update) brings one back.
 */
export type ChatCachePage = ChatPage & { removedIds?: readonly string[] };

/** The cached chat: page 0 is the latest (and holds the settings and `me`); each next page is earlier. */
export type ChatData = InfiniteData<ChatCachePage, string | null>;

/** Every line held, each once (by id), oldest first by `seq`; a removed line never. */
export function flattenChat(data: ChatData | undefined): ChatMessage[] {
  if (!data) return [];
  const removed = new Set(data.pages[0]?.removedIds ?? []);
  const byId = new Map<string, ChatMessage>();
  for (const page of data.pages) for (const line of page.items) if (!removed.has(line.id)) byId.set(line.id, line);
  return [...byId.values()].sort((a, b) => a.seq - b.seq);
}

function holds(data: ChatData, id: string): boolean {
  return data.pages.some((page) => page.items.some((line) => line.id === id));
}

function withFirst(data: ChatData, fn: (page: ChatPage) => ChatPage): ChatData {
  const [first, ...rest] = data.pages;
  if (!first) return data;
  return { ...data, pages: [fn(first), ...rest] };
}

/** A new line (an event or a send's answer): added once, in `seq` order; one held already changes nothing. */
export function addLine(data: ChatData | undefined, line: ChatMessage): ChatData | undefined {
  if (!data || holds(data, line.id)) return data;
  return withFirst(data, (page) => ({ ...page, items: [...page.items, line].sort((a, b) => a.seq - b.seq) }));
}

/** A line a moderator deleted: gone from every page, unpinned if it was the pinned one, and remembered as removed. */
export function removeLine(data: ChatData | undefined, messageId: string): ChatData | undefined {
  if (!data) return data;
  const pages = data.pages.map((page, index) => {
    const items = page.items.some((l) => l.id === messageId) ? page.items.filter((l) => l.id !== messageId) : page.items;
    const pinned = index === 0 && page.settings.pinned?.id === messageId ? null : page.settings.pinned;
    const removedIds = index === 0 && !page.removedIds?.includes(messageId) ? [...(page.removedIds ?? []), messageId] : page.removedIds;
    if (items === page.items && pinned === page.settings.pinned && removedIds === page.removedIds) return page;
    return { ...page, items, settings: { ...page.settings, pinned }, ...(removedIds ? { removedIds } : {}) };
  });
  return { ...data, pages };
}

/** Slow mode or the pinned line changed. */
export function applySettings(data: ChatData | undefined, settings: ChatSettings): ChatData | undefined {
  if (!data) return data;
  return withFirst(data, (page) => ({ ...page, settings: { slowModeSeconds: settings.slowModeSeconds, pinned: settings.pinned } }));
}

/**
 * The reader was muted, unmuted, blocked or unblocked in this show. Muted or blocked cannot write;
 * lifting both gives back what the page knew before (the server's `canWrite`, which also covers
 * the profile and the session's end), so an unmute does not open a composer the server would refuse.
 */
export function applyStanding(data: ChatData | undefined, event: Pick<ChatStandingEvent, 'mutedUntil' | 'isBlocked'>): ChatData | undefined {
  const me = data?.pages[0]?.me;
  if (!data || !me) return data;
  const isMuted = event.mutedUntil !== undefined;
  const next: ChatMe = { tag: me.tag, isModerator: me.isModerator, isBlocked: event.isBlocked, canWrite: me.canWrite };
  if (isMuted) next.mutedUntil = event.mutedUntil;
  const wasHeld = me.isBlocked || me.mutedUntil !== undefined;
  if (isMuted || event.isBlocked) next.canWrite = false;
  else if (wasHeld) next.canWrite = true;
  return withFirst(data, (page) => ({ ...page, me: next }));
}

/**
 * A refetch may answer with less than events already brought (a line that arrived while the
 * request was on its way). Keep the lines newer than the fetched latest page; take the rest as fetched.
 * Every update of the cache passes through here (TanStack Query's structural sharing), a removal
 * too: a line known to be removed is never kept, and the removals stay known.
 */
export function reconcileChat(old: ChatData | undefined, fetched: ChatData): ChatData {
  const oldFirst = old?.pages[0];
  const newFirst = fetched.pages[0];
  if (!oldFirst || !newFirst) return fetched;
  const removedIds = [...new Set([...(oldFirst.removedIds ?? []), ...(newFirst.removedIds ?? [])])];
  const top = newFirst.items.reduce((max, l) => Math.max(max, l.seq), 0);
  const extra = oldFirst.items.filter((l) => l.seq > top && !newFirst.items.some((n) => n.id === l.id) && !removedIds.includes(l.id));
  const sameRemovals = removedIds.length === (newFirst.removedIds?.length ?? 0);
  if (extra.length === 0 && sameRemovals) return fetched;
  return withFirst(fetched, (page) => ({
    ...page,
    items: extra.length === 0 ? page.items : [...page.items, ...extra].sort((a, b) => a.seq - b.seq),
    ...(removedIds.length > 0 ? { removedIds } : {}),
  }));
}

/** Whether the reader is muted now (a timed mute that has run out no longer counts). */
export function isMutedNow(me: ChatMe | null | undefined, now: number): boolean {
  if (!me || me.mutedUntil === undefined) return false;
  return me.mutedUntil === null || me.mutedUntil > now;
}
