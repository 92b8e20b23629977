/**
 * The chatters (a child process): C signed-in buyers writing in the show's chat at R lines a second
 * in all, each on its own steady beat (C ÷ R seconds apart, the beats spread over the period), as
 * the chat's rules allow: never two lines of one user less than 2 s apart (counted from the
 * previous answer, so a slow answer cannot squeeze the next line in early), and never the same
 * line twice in a row.
 */
import { performance } from 'node:perf_hooks';
import { CHAT_MIN_INTERVAL_SECONDS, type ChatMessage } from '../../src/domain/chat.js';
import { onceMessage, sendToParent, sleep } from '../support.js';
import { errorCode, requester } from './http.js';
import type { ChattersResult, ChattersStart } from './protocol.js';

/** Kept above the server's minimum interval: the server's clock reads the request a moment after we send it, never before. */
const MIN_GAP_MS = CHAT_MIN_INTERVAL_SECONDS * 1000 + 50;
const PHRASES = [
  '¿De qué año es?',
  '¡Qué bonito!',
  '¿Hacen envíos a Monterrey?',
  '¿Trae caja original?',
  'Yo voy por el siguiente lote',
  '¡Vendido! 🔨',
  '¿Funciona bien?',
  'Saludos desde Puebla',
];

export async function runChatters(): Promise<void> {
  const start = await onceMessage<ChattersStart>(process, 'start');
  const client = requester(start.base, start.cookies.length);
  const path = `/api/live-sessions/${start.sessionId}/chat`;
  const periodMs = (start.cookies.length / start.rate) * 1000;
  const accepted: ChattersResult['accepted'] = [];
  const refused: Record<string, number> = {};
  const latencyMs: number[] = [];
  let attempted = 0;
  let lastError: string | null = null;
  let running = true;
  const stopped = onceMessage<{ type: 'stop' }>(process, 'stop').then(() => {
    running = false;
  });
  const cpuBefore = process.cpuUsage();
  const t0 = performance.now();

  const chatter = async (index: number) => {
    const cookie = start.cookies[index] as string;
    let lastAnswer = Number.NEGATIVE_INFINITY;
    for (let k = 0; ; k++) {
      const due = Math.max(t0 + (index / start.cookies.length) * periodMs + k * periodMs, lastAnswer + MIN_GAP_MS);
      const wait = due - performance.now();
      if (wait > 0) await Promise.race([sleep(wait), stopped]);
      if (!running) return;
      attempted++;
      const sentAt = performance.now();
      const sentAtEpoch = Date.now();
      const text = `${PHRASES[(index + k) % PHRASES.length]} (${k + 1})`;
      try {
        const res = await client.request('POST', path, cookie, { text });
        const acceptedAt = Date.now();
        lastAnswer = performance.now();
        latencyMs.push(lastAnswer - sentAt);
        if (res.status === 201) {
          const line = JSON.parse(res.body) as ChatMessage;
          accepted.push({ id: line.id, seq: line.seq, sentAt: sentAtEpoch, acceptedAt });
        } else {
          const code = errorCode(res);
          refused[code] = (refused[code] ?? 0) + 1;
          lastError = `${res.status} ${res.body.slice(0, 200)}`;
        }
      } catch (err) {
        lastAnswer = performance.now();
        refused.NETWORK = (refused.NETWORK ?? 0) + 1;
        lastError = String(err);
      }
    }
  };
  await Promise.all(start.cookies.map((_, i) => chatter(i)));
  const cpu = process.cpuUsage(cpuBefore);
  client.close();
  const result: ChattersResult = {
    type: 'result',
    accepted,
    attempted,
    refused,
    lastError,
    latencyMs,
    cpuMs: Math.round((cpu.user + cpu.system) / 1000),
  };
  await sendToParent(result);
}
