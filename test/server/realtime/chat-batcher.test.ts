import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatMessage } from '../../../src/domain/chat.js';
import { createChatBatcher } from '../../../src/server/realtime/chat-batcher.js';

const line = (seq: number, sessionId = 's1'): ChatMessage => ({
  id: `m${seq}`,
  sessionId,
  seq,
  kind: 'user',
  authorName: 'Sofía R.',
  authorTag: 't',
  authorIsModerator: false,
  text: `línea ${seq}`,
  system: null,
  onlyAuthor: false,
  createdAt: 0,
});

describe("a show's chat lines on their way to the room", () => {
  let sent: { sessionId: string; seqs: number[] }[];
  let viewers: number;
  const build = () =>
    createChatBatcher({
      viewerCount: () => viewers,
      send: (sessionId, lines) => sent.push({ sessionId, seqs: lines.map((l) => l.seq) }),
      windowMs: 200,
      fromViewers: 100,
    });

  beforeEach(() => {
    vi.useFakeTimers();
    sent = [];
    viewers = 1000;
  });
  afterEach(() => vi.useRealTimers());

  it('go one by one, at once, in a small room', () => {
    viewers = 10;
    const batcher = build();
    batcher.line(line(1));
    batcher.line(line(2));
    expect(sent).toEqual([
      { sessionId: 's1', seqs: [1] },
      { sessionId: 's1', seqs: [2] },
    ]);
  });

  it('in a large room: the first line of a quiet window at once, the next ones together at its end, in seq order', () => {
    const batcher = build();
    batcher.line(line(1));
    expect(sent).toEqual([{ sessionId: 's1', seqs: [1] }]);
    batcher.line(line(4));
    batcher.line(line(2));
    batcher.line(line(3));
    expect(sent).toHaveLength(1);
    vi.advanceTimersByTime(200);
    expect(sent).toEqual([
      { sessionId: 's1', seqs: [1] },
      { sessionId: 's1', seqs: [2, 3, 4] },
    ]);
    // A quiet window later, a line goes at once again.
    vi.advanceTimersByTime(1000);
    batcher.line(line(5));
    expect(sent.at(-1)).toEqual({ sessionId: 's1', seqs: [5] });
  });

  it('keep each show apart', () => {
    const batcher = build();
    batcher.line(line(1, 'a'));
    batcher.line(line(2, 'b'));
    batcher.line(line(3, 'a'));
    vi.advanceTimersByTime(200);
    expect(sent).toEqual([
      { sessionId: 'a', seqs: [1] },
      { sessionId: 'b', seqs: [2] },
      { sessionId: 'a', seqs: [3] },
    ]);
  });

  it('are sent before a removal or a pin that names them (flush)', () => {
    const batcher = build();
    batcher.line(line(1));
    batcher.line(line(2));
    batcher.flush('s1');
    expect(sent).toEqual([
      { sessionId: 's1', seqs: [1] },
      { sessionId: 's1', seqs: [2] },
    ]);
    vi.advanceTimersByTime(1000);
    expect(sent).toHaveLength(2);
  });
});
