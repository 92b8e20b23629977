import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../../src/domain/chat.js';
import type { ChatRemovedEvent, ChatStandingEvent } from '../../../../src/domain/realtime.js';
import { companyMutedWords } from '../../../../src/server/db/schema.js';
import { buildBidder } from '../../../support/actors.js';
import { type Instance, injectAs, startInstances } from '../../../support/server.js';
import { eventMatching } from '../../../support/sockets.js';
import { buildShow, chatUrl, expectError, settled, viewerIn } from '../../features/chat/fixtures.js';

/**
 * A show's chat on two instances behind one load balancer: one database, one secret, rooms shared
 * through Redis. A line written on one reaches viewers on the other, and a moderator's action on
 * one holds on the other at once. Included by vitest.config.ts only when TEST_REDIS_URL is set.
 */
const redisUrl = process.env.TEST_REDIS_URL as string;

let started: Awaited<ReturnType<typeof startInstances>> | null = null;
let instances: Instance[] = [];
const open: Socket[] = [];

beforeAll(async () => {
  started = await startInstances(2, { redisUrl, secret: 'chat-redis-' });
  instances = started.instances;
}, 60_000);
afterAll(async () => {
  for (const s of open) s.disconnect();
  await started?.close();
});

const a = () => instances[0] as Instance;
const b = () => instances[1] as Instance;

describe('the chat across two instances', () => {
  it('delivers a line written through one instance to a viewer on the other, and its removal too', async () => {
    const show = await buildShow(a());
    const writer = await buildBidder(a());
    const onB = await viewerIn(b(), show.sessionId, open);
    const heard = eventMatching<ChatMessage>(onB, 'chatMessage', (m) => m.sessionId === show.sessionId);
    const res = await injectAs(a(), writer, 'POST', chatUrl(show.sessionId), { text: 'Hola desde A' });
    expect(res.statusCode, res.body).toBe(201);
    expect(await heard).toEqual(res.json());

    const removed = eventMatching<ChatRemovedEvent>(onB, 'chatRemoved', (e) => e.sessionId === show.sessionId);
    expect((await injectAs(a(), show.seller, 'DELETE', `${chatUrl(show.sessionId)}/${(res.json() as ChatMessage).id}`)).statusCode).toBe(204);
    expect((await removed).messageId).toBe((res.json() as ChatMessage).id);
  });

  it('refuses on one instance a user muted on the other, and tells their socket there', async () => {
    const show = await buildShow(a());
    const writer = await buildBidder(a());
    const own = await viewerIn(b(), show.sessionId, open, writer.cookie);
    const told = eventMatching<ChatStandingEvent>(own, 'chatStanding', (e) => e.sessionId === show.sessionId);
    const mute = await injectAs(a(), show.seller, 'POST', `/api/live-sessions/${show.sessionId}/mutes`, { userId: writer.id, minutes: 5 });
    expect(mute.statusCode, mute.body).toBe(201);
    expect((await told).mutedUntil).toBeGreaterThan(Date.now());
    expectError(await injectAs(b(), writer, 'POST', chatUrl(show.sessionId), { text: 'Hola desde B' }), 403, 'CHAT_MUTED');
  });

  it('keeps a muted word’s line to its author on every instance', async () => {
    const show = await buildShow(a());
    const author = await buildBidder(a());
    await a()
      .ctx.db.insert(companyMutedWords)
      .values({ companyId: show.companyId, words: ['estafa'] });
    const authorOnB = await viewerIn(b(), show.sessionId, open, author.cookie);
    const otherOnB = await viewerIn(b(), show.sessionId, open);
    const seen: ChatMessage[] = [];
    otherOnB.on('chatMessage', (m: ChatMessage) => seen.push(m));
    const toAuthor = eventMatching<ChatMessage>(authorOnB, 'chatMessage', (m) => m.onlyAuthor);
    expect((await injectAs(a(), author, 'POST', chatUrl(show.sessionId), { text: 'una estafa' })).statusCode).toBe(201);
    await toAuthor;
    await settled(a(), otherOnB, show.sessionId);
    expect(seen).toEqual([]);
  });
});
