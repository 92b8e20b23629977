/**
 * The viewers (a child process): V connections in the session's room, recording when each lot's
 * `lotFinished` and each chat line arrives, then reporting delivery and consistency.
 */
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { io } from 'socket.io-client';
import WebSocket from 'ws';
import type { ChatMessage } from '../../src/domain/chat.js';
import { CHAT_MESSAGE_EVENT, CHAT_MESSAGES_EVENT, type ChatMessagesEvent, LOT_FINISHED_EVENT, type LotFinishedEvent } from '../../src/domain/realtime.js';
import { onceMessage, round, sendToParent, sleep } from '../support.js';
import type { ChatSeen, ExpectedLine, ViewersFinish, ViewersResult, ViewersStart } from './protocol.js';

/** What one viewer received. */
interface Seen {
  /** lotId → arrival times (epoch ms). */
  lots: Map<string, number[]>;
  /** Chat lines' seqs in arrival order. */
  chat: number[];
}

export async function runViewers(): Promise<void> {
  const start = await onceMessage<ViewersStart>(process, 'start');
  const viewers: Seen[] = [];
  const soldLots = new Set<string>();
  /** seq → the earliest and the latest arrival at any viewer (epoch ms). */
  const chatFirst = new Map<number, number>();
  const chatLast = new Map<number, number>();
  let connectErrors = 0;
  const connectStarted = performance.now();
  const closers: (() => void)[] = [];
  const finishedAt = (seen: Seen, event: Pick<LotFinishedEvent, 'sessionId' | 'lotId' | 'state'>) => {
    const at = Date.now();
    if (event.sessionId !== start.sessionId) return;
    const list = seen.lots.get(event.lotId) ?? [];
    list.push(at);
    seen.lots.set(event.lotId, list);
    if (event.state.winnerTag !== null || event.state.winnerName !== null) soldLots.add(event.lotId);
  };
  const chatAt = (seen: Seen, seq: number) => {
    const at = Date.now();
    seen.chat.push(seq);
    if (!chatFirst.has(seq)) chatFirst.set(seq, at);
    chatLast.set(seq, at);
  };
  /** socket.io-client, as the web app connects. */
  const joinWithClient = (i: number, seen: Seen) =>
    new Promise<void>((resolve) => {
      const socket = io(start.base, { path: '/socket.io', transports: ['websocket'], reconnection: false, forceNew: true });
      closers[i] = () => socket.disconnect();
      socket.on(LOT_FINISHED_EVENT, (event: LotFinishedEvent) => finishedAt(seen, event));
      socket.on(CHAT_MESSAGE_EVENT, (line: ChatMessage) => chatAt(seen, line.seq));
      socket.on(CHAT_MESSAGES_EVENT, (batch: ChatMessagesEvent) => {
        for (const line of batch.lines) chatAt(seen, line.seq);
      });
      socket.once('connect_error', () => {
        connectErrors++;
        resolve();
      });
      socket.once('connect', () => {
        socket.timeout(10_000).emit('joinSession', { sessionId: start.sessionId }, (err: Error | null, answer: { ok: boolean }) => {
          if (err || !answer?.ok) connectErrors++;
          resolve();
        });
      });
    });
  /**
   * Engine.IO 4 / Socket.IO 5 spoken by hand: `lotFinished` and a chat window (`chatMessages`) are
   * parsed, a single chat line is read for its `seq` only (the first `"seq":` of the packet: a quote
   * inside the text is escaped), and
   * everything else is skipped by its prefix.
   */
  const joinRaw = (i: number, seen: Seen) =>
    new Promise<void>((resolve) => {
      const url = new URL(start.base);
      const ws = new WebSocket(`ws://${url.host}/socket.io/?EIO=4&transport=websocket`);
      closers[i] = () => ws.close();
      const finishedPrefix = `42["${LOT_FINISHED_EVENT}",`;
      const chatPrefix = `42["${CHAT_MESSAGE_EVENT}",`;
      const batchPrefix = `42["${CHAT_MESSAGES_EVENT}",`;
      ws.on('message', (data: Buffer) => {
        const text = data.toString();
        if (text.startsWith(chatPrefix)) {
          const at = text.indexOf('"seq":');
          return chatAt(seen, at < 0 ? Number.NaN : Number.parseInt(text.slice(at + 6, at + 26), 10));
        }
        if (text.startsWith(batchPrefix)) {
          for (const line of (JSON.parse(text.slice(2)) as [string, ChatMessagesEvent])[1].lines) chatAt(seen, line.seq);
          return;
        }
        if (text.startsWith(finishedPrefix)) return finishedAt(seen, (JSON.parse(text.slice(2)) as [string, LotFinishedEvent])[1]);
        if (text === '2') return ws.send('3'); // ping → pong
        if (text.startsWith('0')) return ws.send('40'); // open → connect to the main namespace
        if (text.startsWith('40')) return ws.send(`420${JSON.stringify(['joinSession', { sessionId: start.sessionId }])}`);
        if (text.startsWith('430')) {
          if (!text.includes('"ok":true')) connectErrors++;
          resolve();
        }
      });
      ws.once('error', () => {
        connectErrors++;
        resolve();
      });
    });
  const join = (i: number) => {
    const seen: Seen = { lots: new Map(), chat: [] };
    viewers[i] = seen;
    return start.client === 'raw' ? joinRaw(i, seen) : joinWithClient(i, seen);
  };
  // A hundred handshakes at a time, as a crowd arriving does not all land in one millisecond.
  for (let i = 0; i < start.viewers; i += 100) {
    await Promise.all(Array.from({ length: Math.min(100, start.viewers - i) }, (_, k) => join(i + k)));
  }
  const connectMs = Math.round(performance.now() - connectStarted);
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const cpuBefore = process.cpuUsage();
  await sendToParent({ type: 'ready', joined: start.viewers - connectErrors });

  const finish = await onceMessage<ViewersFinish>(process, 'finish');
  const lotIds = Object.keys(finish.closedAt);
  // The last events may still be on their way: wait (bounded) until every viewer has every lot and every line.
  const waitStarted = performance.now();
  const incomplete = (seen: Seen) => seen.chat.length < finish.chat.length || lotIds.some((id) => !seen.lots.has(id));
  while (performance.now() - waitStarted < 5000 && viewers.some(incomplete)) await sleep(20);
  delay.disable();
  const deliveries: number[] = [];
  const firstDeliveries: number[] = [];
  let missing = 0;
  let duplicates = 0;
  for (const lotId of lotIds) {
    const closedAt = finish.closedAt[lotId] as number;
    let latest = Number.NEGATIVE_INFINITY;
    let earliest = Number.POSITIVE_INFINITY;
    for (const seen of viewers) {
      const list = seen.lots.get(lotId);
      if (!list?.length) {
        missing++;
        continue;
      }
      if (list.length > 1) duplicates++;
      const first = Math.min(...list);
      latest = Math.max(latest, first);
      earliest = Math.min(earliest, first);
    }
    if (Number.isFinite(latest)) deliveries.push(latest - closedAt);
    if (Number.isFinite(earliest)) firstDeliveries.push(earliest - closedAt);
  }
  for (const close of closers) close();
  const cpu = process.cpuUsage(cpuBefore);
  const result: ViewersResult = {
    type: 'result',
    joined: start.viewers - connectErrors,
    connectErrors,
    connectMs,
    deliveries,
    firstDeliveries,
    missing,
    duplicates,
    soldSeen: soldLots.size,
    chat: chatSeen(viewers, finish.chat, chatFirst, chatLast),
    cpuMs: Math.round((cpu.user + cpu.system) / 1000),
    eventLoopDelayP99Ms: round(delay.percentile(99) / 1e6),
  };
  await sendToParent(result);
}

/**
 * Every viewer must have every expected line exactly once, in seq order, and nothing else. A line's
 * delivery is its latest arrival at any viewer (a duplicate would count late: duplicates are
 * reported anyway) minus when it was accepted.
 */
function chatSeen(viewers: Seen[], expected: ExpectedLine[], first: Map<number, number>, last: Map<number, number>): ChatSeen {
  const wanted = new Set(expected.map((l) => l.seq));
  let lost = 0;
  let duplicated = 0;
  let outOfOrder = 0;
  let unexpected = 0;
  let viewersAffected = 0;
  for (const seen of viewers) {
    const got = new Set<number>();
    let highest = Number.NEGATIVE_INFINITY;
    let wrong = false;
    for (const seq of seen.chat) {
      if (!wanted.has(seq)) {
        unexpected++;
        wrong = true;
      } else if (got.has(seq)) {
        duplicated++;
        wrong = true;
      } else {
        got.add(seq);
        if (seq < highest) {
          outOfOrder++;
          wrong = true;
        }
      }
      highest = Math.max(highest, seq);
    }
    const missed = expected.length - got.size;
    lost += missed;
    if (wrong || missed > 0) viewersAffected++;
  }
  const fromCreatedAt: number[] = [];
  const fromSend: number[] = [];
  const fromAnswer: number[] = [];
  const firstFromCreatedAt: number[] = [];
  const systemFromCreatedAt: number[] = [];
  for (const line of expected) {
    const latest = last.get(line.seq);
    const earliest = first.get(line.seq);
    if (latest === undefined || earliest === undefined) continue;
    if (!line.user) {
      systemFromCreatedAt.push(latest - line.createdAt);
      continue;
    }
    fromCreatedAt.push(latest - line.createdAt);
    firstFromCreatedAt.push(earliest - line.createdAt);
    if (line.sentAt !== null) fromSend.push(latest - line.sentAt);
    if (line.acceptedAt !== null) fromAnswer.push(latest - line.acceptedAt);
  }
  return { fromCreatedAt, fromSend, fromAnswer, firstFromCreatedAt, systemFromCreatedAt, lost, duplicated, outOfOrder, unexpected, viewersAffected };
}
