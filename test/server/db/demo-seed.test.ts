import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, count, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOG } from '../../../scripts/demo/catalog.js';
import { nextShowTime, showNight } from '../../../scripts/demo/live.js';
import { SELLERS } from '../../../scripts/demo/people.js';
import { DEFAULT_SIZE, planDemo } from '../../../scripts/demo/plan.js';
import { DemoSeedRefused, type SeedDemoResult, seedDemo } from '../../../scripts/demo/seed.js';
import { CONDITIONS } from '../../../src/domain/auctions.js';
import { rfcProblem } from '../../../src/domain/companies.js';
import { checkWhatsapp } from '../../../src/domain/phone.js';
import { foldText } from '../../../src/domain/text.js';
import {
  auctions,
  bids,
  categories,
  companies as companyRecords,
  liveLotRuns,
  liveLots,
  liveSessions,
  paymentItems,
  payments,
  rehearsalSnapshots,
  uploads,
  userProfiles,
  users,
} from '../../../src/server/db/schema.js';
import { countAuctions } from '../../../src/server/features/auctions/queries.js';
import { readShowSummary } from '../../../src/server/features/payments/show-summary/queries.js';
import { createLocalStorage } from '../../../src/server/providers/storage/local.js';
import { createTestDatabase, type TestDatabase } from '../../support/db.js';

/** A small demo keeps the suite fast; the full-size plan is checked in memory below. */
const SIZE = 40;

let database: TestDatabase;
let dataDir: string;
let result: SeedDemoResult;

beforeAll(async () => {
  database = await createTestDatabase();
  dataDir = await mkdtemp(path.join(tmpdir(), 'martillo-demo-'));
  result = await seedDemo({ db: database.db, storage: createLocalStorage(dataDir), size: SIZE });
}, 120_000);
afterAll(async () => {
  await database?.destroy();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('the demo plan', () => {
  it('has a few hundred auctions by default, the same every run, with whole-peso prices', () => {
    expect(DEFAULT_SIZE).toBeGreaterThanOrEqual(200);
    expect(DEFAULT_SIZE).toBeLessThan(1000);
    const plan = planDemo();
    expect(plan.auctions).toHaveLength(DEFAULT_SIZE);
    expect(JSON.stringify(planDemo())).toBe(JSON.stringify(plan));
    for (const a of plan.auctions) {
      expect(Number.isInteger(a.startingPrice) && a.startingPrice > 0).toBe(true);
      if (a.buyNowPrice !== null) expect(a.buyNowPrice).toBeGreaterThan(a.startingPrice);
      expect(a.images.length).toBeGreaterThanOrEqual(1);
      expect(a.images.length).toBeLessThanOrEqual(3);
    }
    const kinds = new Set(plan.auctions.map((a) => a.kind));
    expect([...kinds].sort()).toEqual(['active', 'ended', 'pending']);
    expect(new Set(plan.auctions.map((a) => a.name)).size).toBeGreaterThan(DEFAULT_SIZE * 0.8);
  });
});

describe('seedDemo', () => {
  it('creates the categories', async () => {
    const rows = await database.db.select({ name: categories.name }).from(categories);
    expect(rows.map((r) => r.name).sort()).toEqual(CATALOG.map((c) => c.name).sort());
    expect(rows.length).toBeGreaterThanOrEqual(15);
    expect(result.categories).toBe(rows.length);
  });

  it('creates a platform admin, two companies with an admin and sellers, and buyers, all with complete profiles', async () => {
    const profiles = await database.db.select().from(userProfiles);
    const platform = profiles.filter((p) => p.roles.includes('admin') && p.companyId === null);
    expect(platform).toHaveLength(1);
    const companies = new Set(profiles.filter((p) => p.companyId).map((p) => p.companyId));
    expect([...companies].sort()).toEqual(['remates-del-norte', 'tianguis-tapatio']);
    for (const companyId of companies) {
      const staff = profiles.filter((p) => p.companyId === companyId);
      expect(staff.filter((p) => p.roles.includes('admin'))).toHaveLength(1);
      expect(staff.filter((p) => p.roles.includes('seller')).length).toBeGreaterThanOrEqual(2);
      expect(new Set(staff.map((p) => p.companyName)).size).toBe(1);
    }
    // Each company has its record, with valid invoicing data (billing reads its name from there).
    const records = await database.db.select().from(companyRecords).orderBy(companyRecords.id);
    expect(records.filter((c) => companies.has(c.id)).map((c) => [c.id, c.name, rfcProblem(c.rfc ?? ''), Boolean(c.legalName)])).toEqual([
      ['remates-del-norte', 'Remates del Norte', null, true],
      ['tianguis-tapatio', 'El Tianguis Tapatío', null, true],
    ]);
    const buyers = profiles.filter((p) => p.roles.length === 1 && p.roles[0] === 'buyer');
    expect(buyers.length).toBeGreaterThanOrEqual(5);
    for (const p of profiles) {
      expect(p.email).toBe(p.email.toLowerCase());
      expect(p.firstName && p.lastName && p.displayName).toBeTruthy();
      expect(p.whatsappConsentGiven).toBe(true);
      expect(p.whatsappCountryCode).toBe('+52');
      expect(p.whatsappLocal).toMatch(/^\d{10}$/);
      expect(p.whatsapp).toBe(`+52${p.whatsappLocal}`);
      expect(checkWhatsapp('+52', p.whatsappLocal ?? '').ok).toBe(true);
    }
    const [u] = await database.db.select({ n: count() }).from(users);
    expect(Number(u?.n)).toBe(profiles.length);
  });

  it('creates the auctions through the service, each with 1–3 stored pictures and their thumbnails', async () => {
    const rows = await database.db.select().from(auctions);
    expect(rows).toHaveLength(SIZE);
    expect(result.auctions.total).toBe(SIZE);
    const stored = await database.db.select().from(uploads);
    const byUrl = new Map(stored.map((u) => [u.url, u]));
    expect(stored).toHaveLength(result.images);
    for (const a of rows) {
      expect(a.images.length).toBeGreaterThanOrEqual(1);
      expect(a.images.length).toBeLessThanOrEqual(3);
      for (const url of a.images) {
        const upload = byUrl.get(url);
        expect(upload?.companyId).toBe(a.companyId);
        expect(upload?.width).toBeGreaterThanOrEqual(600);
        expect(existsSync(path.join(dataDir, 'uploads', upload?.storageKey ?? 'missing'))).toBe(true);
        expect(existsSync(path.join(dataDir, 'uploads', upload?.thumbnailKey ?? 'missing'))).toBe(true);
      }
      expect(Number.isInteger(a.startingPrice)).toBe(true);
      if (a.buyNowPrice !== null) expect(a.buyNowPrice).toBeGreaterThan(a.startingPrice);
      expect(CONDITIONS).toContain(a.condicion);
      expect(a.sellerId).not.toBeNull();
      expect(a.searchText).toContain(foldText(a.name));
      expect(a.nameTokens.length).toBeGreaterThan(0);
      expect(a.createdAt.getTime()).toBeLessThan(Date.now());
    }
    expect(new Set(rows.map((a) => a.companyId)).size).toBe(2);
    expect(new Set(rows.map((a) => a.sellerId)).size).toBeGreaterThanOrEqual(4);
  });

  it('mixes pending, running and ended auctions, with end times relative to now', async () => {
    const rows = await database.db.select().from(auctions);
    const now = Date.now();
    const pending = rows.filter((a) => a.status === 'pending');
    const active = rows.filter((a) => a.status === 'active');
    const ended = rows.filter((a) => a.status === 'ended');
    expect(pending.length).toBeGreaterThan(0);
    expect(active.length).toBeGreaterThan(0);
    expect(ended.length).toBeGreaterThan(0);
    for (const a of pending) expect(a.endTime === null || a.endTime.getTime() > now).toBe(true);
    for (const a of active) expect(a.endTime?.getTime()).toBeGreaterThan(now);
    for (const a of ended) {
      expect(a.endTime?.getTime()).toBeLessThan(now);
      expect(a.closedAt).not.toBeNull();
    }
  });

  it('keeps bids, bid counts and prices consistent, and ended auctions won by their highest bidder', async () => {
    const rows = await database.db.select().from(auctions);
    const allBids = await database.db.select().from(bids);
    const profiles = new Map((await database.db.select().from(userProfiles)).map((p) => [p.userId, p]));
    expect(allBids.length).toBe(result.bids);
    let won = 0;
    for (const a of rows) {
      const mine = allBids.filter((b) => b.auctionId === a.id).sort((x, y) => x.createdAt.getTime() - y.createdAt.getTime());
      expect(a.bidCount).toBe(mine.length);
      expect(a.currentPrice).toBe(mine.length ? Math.max(...mine.map((b) => b.amount)) : null);
      for (const [i, b] of mine.entries()) {
        expect(Number.isInteger(b.amount)).toBe(true);
        expect(b.amount).toBeGreaterThanOrEqual(a.startingPrice);
        expect(profiles.get(b.bidderId)?.roles).toEqual(['buyer']);
        if (i > 0) expect(b.amount - (mine[i - 1]?.amount ?? 0)).toBeGreaterThanOrEqual(20);
        if (a.endTime) expect(b.createdAt.getTime()).toBeLessThanOrEqual(a.endTime.getTime());
      }
      const top = mine[mine.length - 1];
      if (a.status === 'ended' && top) {
        won++;
        const winner = profiles.get(top.bidderId);
        expect(a.currentWinnerId).toBe(top.bidderId);
        expect(a.currentWinnerName).toBe(winner?.displayName);
        expect(a.winnerEmail).toBe(winner?.email);
        expect(a.winnerWhatsapp).toBe(winner?.whatsapp);
        expect(a.searchText).toContain(foldText(winner?.displayName ?? '?'));
      } else {
        expect(a.currentWinnerId).toBeNull();
      }
    }
    expect(won).toBeGreaterThan(0);
    expect(won).toBe(result.auctions.endedWithWinner);
  });

  it('records paid payments whose totals equal their items, and leaves other winners pending', async () => {
    const paid = await database.db.select().from(payments);
    expect(paid.length).toBeGreaterThan(0);
    const items = await database.db.select().from(paymentItems);
    const won = await database.db
      .select()
      .from(auctions)
      .where(
        inArray(
          auctions.id,
          items.map((i) => i.auctionId),
        ),
      );
    const auctionById = new Map(won.map((a) => [a.id, a]));
    for (const p of paid) {
      const mine = items.filter((i) => i.paymentId === p.id);
      expect(p.paymentStatus).toBe('paid');
      expect(p.paidAt).not.toBeNull();
      expect(mine.length).toBeGreaterThan(0);
      expect(p.totalAmount).toBe(mine.reduce((sum, i) => sum + i.amount, 0));
      expect(p.grandTotal).toBe(p.totalAmount + p.shippingCost);
      expect(p.shippingCarrier).toBeTruthy();
      for (const i of mine) {
        const a = auctionById.get(i.auctionId);
        expect(i.paymentStatus).toBe('paid');
        expect(a?.currentWinnerId).toBe(p.winnerId);
        expect(a?.sellerId).toBe(p.sellerId);
        expect(a?.companyId).toBe(p.companyId);
        expect(i.amount).toBe(a?.currentPrice);
        expect(p.paidAt?.getTime()).toBeGreaterThan(a?.closedAt?.getTime() ?? Number.POSITIVE_INFINITY);
      }
    }
    const counts = await countAuctions(database.db, { scope: { kind: 'all' }, search: '' });
    expect(counts.paid).toBe(items.length);
    expect(counts.pending).toBe(result.auctions.endedWithWinner - items.length);
    expect(counts.pending).toBeGreaterThan(0);
    expect(counts.all).toBe(SIZE - result.auctions.endedWithWinner);
  });

  it('schedules tonight’s live shows: each seller’s pending auctions as lots, in order, at 20:00 in Mexico City', async () => {
    const sessions = await database.db
      .select()
      .from(liveSessions)
      .where(and(eq(liveSessions.rehearsal, false), eq(liveSessions.status, 'scheduled')));
    expect(sessions.length).toBe(result.liveSessions);
    expect(sessions.length).toBeGreaterThan(0);
    for (const s of sessions) {
      expect(s.status).toBe('scheduled');
      expect(s.scheduledAt.getTime()).toBeGreaterThan(Date.now());
      expect(
        new Intl.DateTimeFormat('en-US', { timeZone: 'America/Mexico_City', hour: 'numeric', hourCycle: 'h23', minute: '2-digit' }).format(s.scheduledAt),
      ).toBe('20:00');
      const lots = await database.db
        .select()
        .from(liveLots)
        .where(inArray(liveLots.sessionId, [s.id]))
        .orderBy(liveLots.order);
      expect(lots.map((l) => l.order)).toEqual(lots.map((_, i) => i + 1));
      expect(lots.length).toBeGreaterThanOrEqual(3);
      const lotAuctions = await database.db
        .select()
        .from(auctions)
        .where(
          inArray(
            auctions.id,
            lots.map((l) => l.auctionId),
          ),
        );
      expect(lotAuctions.every((a) => a.status === 'pending' && a.sellerId === s.sellerId && a.companyId === s.companyId)).toBe(true);
    }
  });

  it('includes last night’s show, ended, with winners to bill and the record its summary draws', async () => {
    expect(result.pastShows).toBe(1);
    const [show] = await database.db.select().from(liveSessions).where(eq(liveSessions.status, 'ended'));
    if (!show) throw new Error('no past show');
    expect(show.scheduledAt.getTime()).toBe(nextShowTime(Date.now()) - 24 * 3_600_000);
    expect(show.shippingRules).toMatchObject({ mode: 'flat' });
    const lots = await database.db.select().from(liveLots).where(eq(liveLots.sessionId, show.id));
    expect(lots.length).toBeGreaterThanOrEqual(3);
    expect(lots.every((l) => l.status === 'finished')).toBe(true);
    expect(await database.db.select().from(liveLotRuns).where(eq(liveLotRuns.sessionId, show.id))).toHaveLength(lots.length);
    const summary = await readShowSummary(database.db, { row: show, masked: false });
    expect(summary.totals.lotsSold).toBeGreaterThanOrEqual(2);
    expect(summary.totals.buyers).toBeGreaterThanOrEqual(1);
    // Nobody has been billed for it yet: all of it waits for 'Cobrar el show'.
    expect(summary.totals.paidAmount).toBe(0);
    expect(summary.buyers.every((b) => b.paymentState === 'unbilled')).toBe(true);
    expect(summary.totals.peakViewers).toBeGreaterThan(summary.totals.averageViewers);
    expect(summary.series.viewers.length).toBeGreaterThan(20);
    expect(summary.series.lotBands).toHaveLength(lots.length);
  });

  it('includes one rehearsal on spare pending auctions, each copied to be put back when it ends', async () => {
    const rehearsals = await database.db.select().from(liveSessions).where(eq(liveSessions.rehearsal, true));
    expect(rehearsals.length).toBe(result.rehearsals);
    expect(rehearsals.length).toBe(1);
    const [rehearsal] = rehearsals;
    if (!rehearsal) throw new Error('no rehearsal');
    expect(rehearsal.status).toBe('scheduled');
    const lots = await database.db.select().from(liveLots).where(eq(liveLots.sessionId, rehearsal.id));
    expect(lots.length).toBeGreaterThan(0);
    const copies = await database.db.select().from(rehearsalSnapshots).where(eq(rehearsalSnapshots.sessionId, rehearsal.id));
    expect(copies.map((c) => c.auctionId).sort()).toEqual(lots.map((l) => l.auctionId).sort());
    // Its auctions are in no other show.
    const elsewhere = await database.db
      .select()
      .from(liveLots)
      .where(
        inArray(
          liveLots.auctionId,
          lots.map((l) => l.auctionId),
        ),
      );
    expect(elsewhere.length).toBe(lots.length);
  });

  it('titles every show by its seller and night, so no two read the same in a list', async () => {
    const sessions = await database.db.select().from(liveSessions);
    // Tonight's shows, last night's and the rehearsal: several sellers of one company among them.
    expect(sessions.length).toBeGreaterThanOrEqual(3);
    const sellers = await database.db
      .select()
      .from(userProfiles)
      .where(inArray(userProfiles.userId, [...new Set(sessions.map((s) => s.sellerId))]));
    expect(new Set(sessions.map((s) => s.companyId)).size).toBeLessThan(sessions.length);
    expect(new Set(sessions.map((s) => s.title)).size).toBe(sessions.length);
    for (const s of sessions) {
      const seller = sellers.find((p) => p.userId === s.sellerId);
      expect(s.title).toBe(`${s.rehearsal ? 'Ensayo' : 'Remate'} de ${seller?.firstName} · ${showNight(s.scheduledAt.getTime())}`);
    }
    // Seller and night tell every show apart at any size: no two sellers share a first name.
    expect(new Set(SELLERS.map((p) => p.firstName)).size).toBe(SELLERS.length);
    // The night in Mexico City, in Spanish: 20:00 on 23 November 2026 there is 02:00 UTC on the 24th.
    expect(showNight(Date.UTC(2026, 10, 24, 2, 0))).toBe('lun 23 de nov');
  });

  it('sets a show at the next 20:00 in Mexico City, at least half an hour ahead', () => {
    // 2026-11-23 19:00 in Mexico City (UTC-6) → 20:00 the same day; 19:45 → 20:00 the next day.
    expect(new Date(nextShowTime(Date.UTC(2026, 10, 24, 1, 0))).toISOString()).toBe('2026-11-24T02:00:00.000Z');
    expect(new Date(nextShowTime(Date.UTC(2026, 10, 24, 1, 45))).toISOString()).toBe('2026-11-25T02:00:00.000Z');
    expect(new Date(nextShowTime(Date.UTC(2026, 10, 24, 3, 0))).toISOString()).toBe('2026-11-25T02:00:00.000Z');
  });

  it('refuses to run on a database that already has data', async () => {
    const [before] = await database.db.select({ n: count() }).from(auctions);
    await expect(seedDemo({ db: database.db, storage: createLocalStorage(dataDir), size: 2 })).rejects.toBeInstanceOf(DemoSeedRefused);
    const [after] = await database.db.select({ n: count() }).from(auctions);
    expect(Number(after?.n)).toBe(Number(before?.n));
  });
});
