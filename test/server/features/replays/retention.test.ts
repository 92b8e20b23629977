import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentItems, replayClips, replays } from '../../../../src/server/db/schema.js';
import { deleteExpiredReplays } from '../../../../src/server/features/replays/retention.js';
import { buildPayment, buildSession, buildWonAuction } from '../../../support/factories.js';
import { startTestServer, type TestServer } from '../../../support/server.js';

/**
 * What replays keep: a replay until its retention ends; a clip 90 days after its show while its
 * bill is unpaid, 30 days after the bill is paid once it is. The daily pass deletes what expired,
 * files and rows, and nothing else.
 */

const DAY = 86_400_000;
let server: TestServer;
let work = '';
let file = '';

beforeAll(async () => {
  server = await startTestServer({ listen: false });
  work = await mkdtemp(path.join(tmpdir(), 'martillo-retention-'));
  file = path.join(work, 'video.mp4');
  await writeFile(file, randomBytes(4096));
}, 60_000);
afterAll(async () => {
  await server?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

async function storedReplay(expiresInDays: number) {
  const session = await buildSession(server.ctx.db, { status: 'ended' });
  const videoKey = `replays/${session.id}/replay.mp4`;
  const posterKey = `replays/${session.id}/poster.jpg`;
  await server.ctx.storage.putFile(videoKey, file, 'video/mp4');
  await server.ctx.storage.putFile(posterKey, file, 'image/jpeg');
  await server.ctx.db.insert(replays).values({
    sessionId: session.id,
    status: 'ready',
    progress: 100,
    videoKey,
    posterKey,
    durationMs: 1000,
    expiresAt: new Date(Date.now() + expiresInDays * DAY),
  });
  return { session, videoKey, posterKey };
}

async function storedClip(opts: { expiresInDays: number; paidDaysAgo?: number }) {
  const session = await buildSession(server.ctx.db, { status: 'ended' });
  const auction = await buildWonAuction(server.ctx.db, { price: 800 });
  const videoKey = `clips/${auction.id}.mp4`;
  await server.ctx.storage.putFile(videoKey, file, 'video/mp4');
  await server.ctx.db.insert(replayClips).values({
    auctionId: auction.id,
    sessionId: session.id,
    status: 'ready',
    videoKey,
    startMs: 0,
    endMs: 1000,
    durationMs: 1000,
    expiresAt: new Date(Date.now() + opts.expiresInDays * DAY),
  });
  if (opts.paidDaysAgo !== undefined) {
    const payment = await buildPayment(server.ctx.db, {
      winnerId: auction.currentWinnerId as string,
      totalAmount: 800,
      paymentStatus: 'paid',
      paidAt: new Date(Date.now() - opts.paidDaysAgo * DAY),
      provider: 'sandbox',
      providerStatus: 'approved',
    });
    await server.ctx.db
      .insert(paymentItems)
      .values({ paymentId: payment.id, paymentStatus: 'paid', auctionId: auction.id, auctionName: auction.name, amount: 800 });
  }
  return { auction, videoKey };
}

const clipRow = async (auctionId: string) => (await server.ctx.db.select().from(replayClips).where(eq(replayClips.auctionId, auctionId)))[0];

describe('replays’ retention', () => {
  it('deletes an expired replay’s files and row, and keeps one still within its days', async () => {
    const old = await storedReplay(-1);
    const fresh = await storedReplay(30);
    const done = await deleteExpiredReplays(server.ctx.db, server.ctx.storage);
    expect(done.replaysDeleted).toBeGreaterThanOrEqual(1);
    expect(await server.ctx.storage.stat(old.videoKey)).toBeNull();
    expect(await server.ctx.storage.stat(old.posterKey)).toBeNull();
    expect(await server.ctx.db.select().from(replays).where(eq(replays.sessionId, old.session.id))).toEqual([]);
    expect(await server.ctx.storage.stat(fresh.videoKey)).not.toBeNull();
    expect((await server.ctx.db.select().from(replays).where(eq(replays.sessionId, fresh.session.id))).length).toBe(1);
  });

  it('keeps a clip 30 days after its bill is paid, and deletes it once they are over', async () => {
    const unpaid = await storedClip({ expiresInDays: 60 });
    const paidLately = await storedClip({ expiresInDays: 60, paidDaysAgo: 5 });
    const paidLongAgo = await storedClip({ expiresInDays: 60, paidDaysAgo: 31 });
    // Paid on the show's last days: kept 30 days from the payment, past the show's 90.
    const paidLate = await storedClip({ expiresInDays: 2, paidDaysAgo: 1 });
    const done = await deleteExpiredReplays(server.ctx.db, server.ctx.storage);
    expect(done.clipsRedated).toBe(3);

    expect((await clipRow(unpaid.auction.id))?.expiresAt?.getTime()).toBeGreaterThan(Date.now() + 59 * DAY);
    const lately = (await clipRow(paidLately.auction.id))?.expiresAt?.getTime() ?? 0;
    expect(Math.abs(lately - (Date.now() + 25 * DAY))).toBeLessThan(60_000);
    expect((await clipRow(paidLate.auction.id))?.expiresAt?.getTime()).toBeGreaterThan(Date.now() + 28 * DAY);

    expect(await clipRow(paidLongAgo.auction.id)).toBeUndefined();
    expect(await server.ctx.storage.stat(paidLongAgo.videoKey)).toBeNull();
    for (const kept of [unpaid, paidLately, paidLate]) expect(await server.ctx.storage.stat(kept.videoKey)).not.toBeNull();

    expect(await deleteExpiredReplays(server.ctx.db, server.ctx.storage)).toEqual({ replaysDeleted: 0, clipsDeleted: 0, clipsRedated: 0 });
  });

  it('deletes an unpaid clip 90 days after its show', async () => {
    const expired = await storedClip({ expiresInDays: -1 });
    await deleteExpiredReplays(server.ctx.db, server.ctx.storage);
    expect(await clipRow(expired.auction.id)).toBeUndefined();
    expect(await server.ctx.storage.stat(expired.videoKey)).toBeNull();
  });
});
