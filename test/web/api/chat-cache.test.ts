import { describe, expect, it } from 'vitest';
import type { ChatMe, ChatMessage, ChatPage } from '../../../src/domain/chat';
import { addLine, applySettings, applyStanding, type ChatData, flattenChat, isMutedNow, reconcileChat, removeLine } from '../../../src/web/api/chat-cache';

const SESSION = '2b6f8d0e-5c4a-4e1b-9f3d-7a8c9e0f1a2b';

const line = (seq: number, over: Partial<ChatMessage> = {}): ChatMessage => ({
  id: `m-${seq}`,
  sessionId: SESSION,
  seq,
  kind: 'user',
  authorName: 'Sofía R.',
  authorTag: 'a',
  authorIsModerator: false,
  text: `línea ${seq}`,
  system: null,
  onlyAuthor: false,
  createdAt: 1_900_000_000_000 + seq,
  ...over,
});

/** Oldest first, as the API pages them. */
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => line(from + i));

const me = (over: Partial<ChatMe> = {}): ChatMe => ({ tag: 'a', canWrite: true, isModerator: false, isBlocked: false, ...over });

function page(items: ChatMessage[], over: Partial<ChatPage> = {}): ChatPage {
  return { items, nextBefore: null, settings: { slowModeSeconds: 0, pinned: null }, me: me(), ...over };
}

function chat(...pages: ChatPage[]): ChatData {
  return { pages, pageParams: pages.map((_, i) => (i === 0 ? null : (pages[i - 1]?.nextBefore ?? null))) };
}

const seqs = (data: ChatData | undefined) => flattenChat(data).map((l) => l.seq);

describe('the chat cache', () => {
  it('adds the lines of events in seq order, whatever order they arrive in', () => {
    let data: ChatData | undefined = chat(page(range(1, 3)));
    data = addLine(data, line(5));
    data = addLine(data, line(4));
    data = addLine(data, line(6));
    expect(seqs(data)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('keeps one copy of a line that arrives both in the send answer and in the room', () => {
    let data: ChatData | undefined = chat(page(range(1, 2)));
    data = addLine(data, line(3));
    const again = addLine(data, line(3));
    expect(again).toBe(data);
    expect(seqs(again)).toEqual([1, 2, 3]);
  });

  it('drops a removed line from every page and unpins it', () => {
    const pinned = line(60);
    const data = chat(page(range(51, 100), { nextBefore: 'm-51', settings: { slowModeSeconds: 5, pinned } }), page(range(1, 50)));
    const afterOld = removeLine(data, 'm-7');
    expect(seqs(afterOld)).not.toContain(7);
    expect(seqs(afterOld)).toHaveLength(99);
    const afterPinned = removeLine(afterOld, 'm-60');
    expect(seqs(afterPinned)).not.toContain(60);
    expect(afterPinned?.pages[0]?.settings).toEqual({ slowModeSeconds: 5, pinned: null });
    // An id the cache does not hold removes no line (and is remembered, should its line come late).
    expect(seqs(removeLine(afterPinned, 'm-404'))).toEqual(seqs(afterPinned));
    expect(seqs(addLine(removeLine(afterPinned, 'm-404'), line(404)))).not.toContain(404);
  });

  it('keeps the newest line removed: the reconciliation of the removal itself, or a later refetch, does not bring it back', () => {
    const held = chat(page(range(1, 4)));
    // TanStack Query passes every update through the structural sharing (reconcileChat), the removal too.
    const removed = reconcileChat(held, removeLine(held, 'm-4') as ChatData);
    expect(seqs(removed)).toEqual([1, 2, 3]);
    // A refetch answered before the removal reached the server still holds it: it stays removed.
    const stale = reconcileChat(removed, chat(page(range(1, 4))));
    expect(seqs(stale)).toEqual([1, 2, 3]);
    // A refetch after it, and a new line after that: the removal is still known.
    const later = reconcileChat(stale, chat(page(range(1, 3))));
    expect(seqs(addLine(later, line(5)))).toEqual([1, 2, 3, 5]);
    expect(seqs(addLine(later, line(4)))).toEqual([1, 2, 3]);
  });

  it('reads earlier pages before the latest one, each line once', () => {
    const data = chat(page(range(51, 100), { nextBefore: 'm-51' }), page(range(1, 51), { nextBefore: null }));
    expect(seqs(data)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
  });

  it('keeps lines an event brought while a refetch was on its way', () => {
    const held = addLine(chat(page(range(1, 3))), line(4)) as ChatData;
    const fetched = chat(page(range(1, 3)));
    expect(seqs(reconcileChat(held, fetched))).toEqual([1, 2, 3, 4]);
    // A refetch that knows more is taken as it is.
    const newer = chat(page(range(1, 5)));
    expect(reconcileChat(held, newer)).toBe(newer);
  });

  it('takes new settings', () => {
    const data = applySettings(chat(page(range(1, 2))), { slowModeSeconds: 30, pinned: line(2) });
    expect(data?.pages[0]?.settings.slowModeSeconds).toBe(30);
    expect(data?.pages[0]?.settings.pinned?.id).toBe('m-2');
  });

  it("follows the reader's standing: muted and blocked cannot write, lifting both gives it back", () => {
    const data = chat(page(range(1, 2)));
    const muted = applyStanding(data, { mutedUntil: null, isBlocked: false });
    expect(muted?.pages[0]?.me).toMatchObject({ canWrite: false, mutedUntil: null });
    expect(isMutedNow(muted?.pages[0]?.me, Date.now())).toBe(true);
    const unmuted = applyStanding(muted, { isBlocked: false });
    expect(unmuted?.pages[0]?.me?.canWrite).toBe(true);
    expect(unmuted?.pages[0]?.me && 'mutedUntil' in unmuted.pages[0].me).toBe(false);
    const blocked = applyStanding(unmuted, { isBlocked: true });
    expect(blocked?.pages[0]?.me).toMatchObject({ canWrite: false, isBlocked: true });
    // A reader who could not write for another reason (an incomplete profile) stays so when unmuted.
    const incomplete = chat(page(range(1, 2), { me: me({ canWrite: false }) }));
    expect(applyStanding(incomplete, { isBlocked: false })?.pages[0]?.me?.canWrite).toBe(false);
    // Signed out: nothing to follow.
    const signedOut = chat(page(range(1, 2), { me: null }));
    expect(applyStanding(signedOut, { isBlocked: true })).toBe(signedOut);
  });

  it('counts a timed mute only until it runs out', () => {
    const now = 1_900_000_000_000;
    expect(isMutedNow(me({ mutedUntil: now + 1000 }), now)).toBe(true);
    expect(isMutedNow(me({ mutedUntil: now - 1 }), now)).toBe(false);
    expect(isMutedNow(me(), now)).toBe(false);
  });
});
