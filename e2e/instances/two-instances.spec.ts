import { execFileSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedBuyers } from '../../bench/support.js';
import type { BidAnswer } from '../../src/domain/bidding.js';
import { DEFAULT_BIDDING_CONFIG } from '../../src/domain/live.js';
import { livePath } from '../../src/domain/live-public.js';
import { formatMoney } from '../../src/domain/money.js';
import type { UploadResult } from '../../src/domain/uploads.js';
import { connectDatabase, type Database } from '../../src/server/db/connect.js';
import { auctions, authSessions, bids, userProfiles } from '../../src/server/db/schema.js';
import { hashToken, SESSION_COOKIE } from '../../src/server/sessions/store.js';
import { closeAudits, createEmptyPostgresDatabase } from '../../test/support/db.js';
import { buildAuction, buildLot, buildSeller, buildSession } from '../../test/support/factories.js';
import { haproxyMissingReason, type RunningHaproxy, startHaproxy } from '../../test/support/haproxy.js';
import { janusMissingReason, type RunningJanus, startJanus } from '../../test/support/janus.js';
import { freePort } from '../../test/support/net.js';
import { type RunningRedis, redisMissingReason, startRedis } from '../../test/support/redis.js';
import { type S3Server, startS3Server } from '../../test/support/s3.js';
import { sleep } from '../../test/support/wait.js';
import { root } from '../support/app.js';
import { t } from '../support/catalogue.js';
import { ProductionInstance, postgresReachableHere, until } from '../support/instances.js';
import { framesAdvance, launchVideoBrowser } from '../support/video.js';
import { eventually, eventuallyMedia } from '../support/wait.js';

/**
 * Several instances for real: the built release started twice in production mode on one
 * PostgreSQL and one Redis, behind HAProxy from Debian with the operator's configuration
 * (deploy/haproxy.cfg), with Janus for video, in the video suite's loopback-only namespace.
 * The seller's browser sticks to app1 and runs the show from the Live Hub; one buyer's browser
 * sticks to app1 and one to app2; a stream of bids from more buyers, their pages on either
 * instance, goes through the balancer to the one instance that takes that auction's bids. Then
 * app2, holding a lot's bids, is killed (SIGKILL) mid-lot, and later both are restarted in turn
 * (SIGTERM). Each lot must close exactly once, on time, and every bid answered 201 must be in the
 * database.
 */

const needs = [
  process.env.TEST_DATABASE_URL ? null : 'PostgreSQL (TEST_DATABASE_URL)',
  process.env.MARTILLO_VIDEO_NETNS ? null : 'the video network namespace (npm test runs this suite in it)',
  haproxyMissingReason(),
  redisMissingReason(),
  janusMissingReason(),
].filter((reason): reason is string => reason !== null);

const COMPANY = 'dos-instancias';
const SLUG = 'dos-instancias';
const LOT_SECONDS = 20;
const ROLLING_LOT_SECONDS = 75;
const PLAYER = '[data-testid="live-player"]';
const b = t.livehub.broadcast;
const c = t.live.chat;

/** What a stream of bids saw: each accepted bid (its amount and bidder), and every other answer by status. */
interface BidTally {
  accepted: { amount: number; bidderId: string }[];
  statuses: Map<number | 'network', number>;
  /** What each request without an answer failed with (undici's cause), for the failure message. */
  networkErrors: string[];
}

if (needs.length > 0) {
  console.log(`SKIPPED: several instances behind HAProxy: needs ${needs.join('; ')}`);
  describe.skip(`two production instances behind HAProxy (needs ${needs.join('; ')})`, () => {
    it('runs a show across both', () => {});
  });
} else {
  describe('two production instances behind HAProxy, with Janus', () => {
    let database: Database;
    let dropDatabase: () => Promise<void> = async () => {};
    let redis: RunningRedis;
    let janus: RunningJanus;
    let s3: S3Server;
    let lb: RunningHaproxy;
    let app1: ProductionInstance;
    let app2: ProductionInstance;
    let browser: Browser;
    let dataRoot = '';
    const secret = randomBytes(32).toString('hex');
    let sessionId = '';
    const lotAuctions: string[] = [];
    let sellerToken = '';
    let buyerIds: string[] = [];
    let buyerTokens: string[] = [];
    let hub: Page;
    let viewer1: Page;
    let viewer2: Page;

    const instances = () => [app1, app2];

    async function contextOn(instance: 'app1' | 'app2', token: string | null, phone: boolean): Promise<BrowserContext> {
      const context = await browser.newContext({
        locale: 'es-MX',
        timezoneId: 'America/Mexico_City',
        ...(phone ? { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } : { viewport: { width: 1280, height: 900 } }),
      });
      await context.addCookies([
        { name: 'martillo_instance', value: instance, url: lb.url },
        ...(token ? [{ name: SESSION_COOKIE, value: token, url: lb.url }] : []),
      ]);
      return context;
    }

    /** Which instance HAProxy sends a browser holding `instance`'s cookie to: it re-inserts the cookie when it redispatches. */
    async function servedBy(instance: 'app1' | 'app2'): Promise<string> {
      const res = await fetch(`${lb.url}/healthz`, { headers: { cookie: `martillo_instance=${instance}` } });
      await res.arrayBuffer();
      const set = res.headers.get('set-cookie') ?? '';
      return /martillo_instance=(\w+)/.exec(set)?.[1] ?? instance;
    }

    /** The seller's API, from the Hub's own browser context (so through the balancer, on app1 while it is up). */
    async function sellerPost(pathname: string, data: unknown = {}): Promise<void> {
      const res = await hub.request.post(`${lb.url}${pathname}`, { data, headers: { origin: lb.url } });
      expect(res.status(), await res.text()).toBeLessThan(300);
    }

    /**
     * Bids from `bidders` buyers through the balancer, their pages on app1 and app2 in turn (the
     * instance cookie), one increment above each other in send order, until `stop()`; paced so no
     * buyer reaches the bid rate limit.
     */
    function bidStream(auctionId: string, bidders: number[], opts: { startAt: number; increment: number }) {
      const tally: BidTally = { accepted: [], statuses: new Map(), networkErrors: [] };
      let next = opts.startAt;
      let running = true;
      const loops = bidders.map(async (k) => {
        while (running) {
          const amount = next;
          next += opts.increment;
          const res = await fetch(`${lb.url}/api/auctions/${auctionId}/bids`, {
            method: 'POST',
            headers: {
              cookie: `${SESSION_COOKIE}=${buyerTokens[k]}; martillo_instance=app${1 + (k % 2)}`,
              origin: lb.url,
              'content-type': 'application/json',
            },
            body: JSON.stringify({ amount }),
          }).catch((err: unknown) => {
            const cause = err instanceof Error && err.cause instanceof Error ? err.cause : err;
            tally.networkErrors.push(
              `${new Date().toISOString()} ${cause instanceof Error ? `${(cause as { code?: string }).code ?? ''} ${cause.message}` : String(cause)}`,
            );
            return null;
          });
          const status = res?.status ?? 'network';
          tally.statuses.set(status, (tally.statuses.get(status) ?? 0) + 1);
          if (res?.status === 201) {
            const answer = (await res.json()) as BidAnswer;
            for (const line of answer.bids) tally.accepted.push({ amount: line.amount, bidderId: buyerIds[k] as string });
          } else await res?.arrayBuffer();
          await sleep(400);
        }
      });
      return {
        tally,
        async stop(): Promise<BidTally> {
          running = false;
          await Promise.all(loops);
          return tally;
        },
      };
    }

    /** The instances HAProxy handed the auction's bids to (its log), in the order they first took one; `since` skips earlier requests. */
    function bidsTakenBy(auctionId: string, since = 0): string[] {
      const bidPath = `/api/auctions/${auctionId}/bids`;
      const servers = lb
        .requests()
        .slice(since)
        .filter((r) => r.method === 'POST' && r.path === bidPath)
        .map((r) => `${r.backend}/${r.server}`);
      return [...new Set(servers)];
    }

    /**
     * An auction id whose bids the balancer hands to `instance`: a bid on a fresh id (refused, no
     * session) is sent until one lands there. The hash is HAProxy's own, so nothing here copies it.
     */
    async function auctionIdFor(instance: 'app1' | 'app2'): Promise<string> {
      for (let tries = 0; tries < 40; tries++) {
        const id = randomUUID();
        const res = await fetch(`${lb.url}/api/auctions/${id}/bids`, {
          method: 'POST',
          headers: { origin: lb.url, 'content-type': 'application/json' },
          body: '{}',
        });
        await res.arrayBuffer();
        const taken = await (async () => {
          for (let wait = 0; wait < 20 && bidsTakenBy(id).length === 0; wait++) await sleep(50);
          return bidsTakenBy(id);
        })();
        if (taken.join() === `bids/${instance}`) return id;
      }
      throw new Error(`no auction id the balancer sends to ${instance} in 40 tries`);
    }

    async function lotRow(auctionId: string) {
      const [row] = await database.db
        .select({
          status: auctions.status,
          endTime: auctions.endTime,
          closedAt: auctions.closedAt,
          currentPrice: auctions.currentPrice,
          winnerId: auctions.currentWinnerId,
        })
        .from(auctions)
        .where(eq(auctions.id, auctionId));
      if (!row) throw new Error(`no auction ${auctionId}`);
      return row;
    }

    /** Every accepted bid is stored, by amount and bidder; the price is the highest accepted. */
    async function expectEveryAcceptedBidStored(auctionId: string, tally: BidTally): Promise<void> {
      const stored = await database.db.select({ amount: bids.amount, bidderId: bids.bidderId }).from(bids).where(eq(bids.auctionId, auctionId));
      const keys = new Set(stored.map((s) => `${s.amount}:${s.bidderId}`));
      const missing = tally.accepted.filter((a) => !keys.has(`${a.amount}:${a.bidderId}`));
      expect(missing).toEqual([]);
      const highest = Math.max(...tally.accepted.map((a) => a.amount));
      expect((await lotRow(auctionId)).currentPrice).toBe(highest);
    }

    /** Waits for the scheduler to close the lot; returns how late after its end it closed, in ms. */
    async function closedLate(auctionId: string, seconds = LOT_SECONDS): Promise<number> {
      await eventually(async () => (await lotRow(auctionId)).status, seconds * 1000 + 30_000).toBe('ended');
      const row = await lotRow(auctionId);
      return (row.closedAt?.getTime() ?? 0) - (row.endTime?.getTime() ?? 0);
    }

    beforeAll(async () => {
      execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
      process.env.TEST_DATABASE_URL = postgresReachableHere(process.env.TEST_DATABASE_URL as string);
      const target = await createEmptyPostgresDatabase();
      if (!target) throw new Error('no PostgreSQL');
      dropDatabase = target.drop;
      redis = await startRedis();
      janus = await startJanus({ netns: true });
      // Images in one bucket for both, as the README's several-instances settings ask (STORAGE=s3).
      s3 = await startS3Server();
      dataRoot = mkdtempSync(path.join(os.tmpdir(), 'martillo-instances-'));
      const [port1, port2, lbPort] = [await freePort(), await freePort(), await freePort()];
      const publicUrl = `http://127.0.0.1:${lbPort}`;
      const shared = {
        DATABASE_URL: target.url,
        REDIS_URL: redis.url,
        SESSION_SECRET: secret,
        PUBLIC_URL: publicUrl,
        TRUST_PROXY: 'true',
        // As deploy/haproxy.cfg asks: a stopping instance leaves the rotation before it refuses anything.
        SHUTDOWN_DRAIN_SECONDS: '3',
        VIDEO_PROVIDER: 'janus',
        JANUS_URL: janus.url,
        GOOGLE_CLIENT_ID: 'instances-test',
        GOOGLE_CLIENT_SECRET: 'instances-test',
        PAYMENTS_PROVIDER: 'sandbox',
        PAYMENTS_SANDBOX_PUBLIC_DEMO: 'true',
        LOG_LEVEL: 'warn',
        ...s3.env,
      };
      app1 = new ProductionInstance('app1', port1, { ...shared, DATA_DIR: path.join(dataRoot, 'app1') });
      app2 = new ProductionInstance('app2', port2, { ...shared, DATA_DIR: path.join(dataRoot, 'app2') });
      // The first migrates the database; the second finds it migrated.
      await app1.start();
      await app2.start();
      lb = await startHaproxy({ app1: port1, app2: port2 }, lbPort);
      await until(async () => (await servedBy('app1')) === 'app1' && (await servedBy('app2')) === 'app2', 'HAProxy sends to both instances');

      database = await connectDatabase({ kind: 'postgresql', url: target.url }, { poolSize: 2 });
      const seller = await buildSeller(database.db, { email: 'vera.dos@ejemplo.mx', companyId: COMPANY });
      await database.db
        .update(userProfiles)
        .set({
          firstName: 'Vera',
          lastName: 'Vendedora',
          whatsapp: '+523312340000',
          whatsappCountryCode: '+52',
          whatsappLocal: '3312340000',
          whatsappConsentGiven: true,
          whatsappConsentAt: new Date(),
        })
        .where(eq(userProfiles.userId, seller.id));
      sellerToken = randomBytes(32).toString('base64url');
      await database.db
        .insert(authSessions)
        .values({ tokenHash: hashToken(sellerToken, secret), userId: seller.id, expiresAt: new Date(Date.now() + 86_400_000) });
      const session = await buildSession(database.db, {
        sellerId: seller.id,
        companyId: COMPANY,
        sellerSlug: SLUG,
        title: 'Show en dos instancias',
        biddingConfig: { ...DEFAULT_BIDDING_CONFIG, timerMode: 'suddenDeath', timerSecondsDefault: LOT_SECONDS },
      });
      sessionId = session.id;
      for (const name of ['Reloj Haste', 'Cámara Yashica', 'Radio Philco', 'Máquina Olivetti']) {
        // The third lot's bids go to app2, the instance killed while it runs.
        const id = name === 'Radio Philco' ? await auctionIdFor('app2') : randomUUID();
        const auction = await buildAuction(database.db, { id, name, companyId: COMPANY, sellerId: seller.id, startingPrice: 500, status: 'pending' });
        await buildLot(database.db, { sessionId, auctionId: auction.id });
        lotAuctions.push(auction.id);
      }
      const buyers = await seedBuyers(database, secret, 12);
      buyerIds = buyers.userIds;
      buyerTokens = buyers.cookies;
      browser = await launchVideoBrowser();
    });

    afterAll(async () => {
      await browser?.close();
      await lb?.stop();
      for (const instance of [app1, app2]) await instance?.stop();
      await janus?.stop();
      await s3?.stop();
      await redis?.stop();
      await database?.close();
      await dropDatabase();
      if (dataRoot) rmSync(dataRoot, { recursive: true, force: true });
    });

    it('the seller on app1 broadcasts and runs a lot; buyers on both instances watch, chat and bid; it closes once', async () => {
      hub = await (await contextOn('app1', sellerToken, false)).newPage();
      hub.setDefaultTimeout(20_000);
      await hub.goto(`${lb.url}/admin/livehub?session=${sessionId}`);
      await hub.getByTestId('transmission-panel').waitFor();
      await hub.getByRole('button', { name: b.preview, exact: true }).click();
      await hub.getByTestId('player-badge').getByText(b.previewBadge).waitFor();
      await hub.getByRole('button', { name: b.start, exact: true }).click();
      await hub.getByTestId('player-badge').getByText(b.liveBadge).waitFor();

      const url = `${lb.url}${livePath({ id: sessionId, sellerSlug: SLUG })}`;
      viewer1 = await (await contextOn('app1', buyerTokens[0] as string, true)).newPage();
      viewer2 = await (await contextOn('app2', buyerTokens[1] as string, true)).newPage();
      for (const viewer of [viewer1, viewer2]) {
        viewer.setDefaultTimeout(20_000);
        await viewer.goto(url);
        await viewer.getByTestId('live-session').waitFor();
        expect((await framesAdvance(viewer, PLAYER)).width).toBeGreaterThan(0);
      }
      await eventuallyMedia(() => hub.getByTestId('viewer-count').textContent()).toBe('2');

      await sellerPost(`/api/live-sessions/${sessionId}/next`);
      const first = lotAuctions[0] as string;
      for (const viewer of [viewer1, viewer2]) await eventually(() => viewer.getByTestId('current-lot-name').innerText()).toBe('Reloj Haste');

      // A line from each buyer reaches the other, whichever instance took it.
      for (const [from, to, text] of [
        [viewer1, viewer2, 'Saludos desde la primera instancia'],
        [viewer2, viewer1, 'Y yo desde la segunda'],
      ] as const) {
        const overlay = from.getByTestId('chat-overlay');
        await overlay.getByRole('textbox', { name: c.inputLabel }).fill(text);
        await overlay.getByRole('button', { name: c.send }).click();
        await to.getByTestId('chat-overlay').getByTestId('chat-text').filter({ hasText: text }).waitFor();
      }

      // Each buyer bids from their own page's session; both pages follow the price.
      for (const [viewer, amount] of [
        [viewer1, 500],
        [viewer2, 520],
      ] as const) {
        const res = await viewer.request.post(`${lb.url}/api/auctions/${first}/bids`, { data: { amount }, headers: { origin: lb.url } });
        expect(res.status(), await res.text()).toBe(201);
        for (const page of [viewer1, viewer2]) await eventually(() => page.getByTestId('current-price').innerText()).toBe(formatMoney(amount));
      }

      const late = await closedLate(first);
      console.log(`[instances] lot 1 closed ${late} ms after its end`);
      expect(await closeAudits(database.db, first)).toBe(1);
      expect((await lotRow(first)).winnerId).toBe(buyerIds[1]);
      for (const viewer of [viewer1, viewer2]) await eventually(() => viewer.getByTestId('current-lot-outcome').innerText()).toBe(t.live.results.sold);
    });

    it('a photo the seller uploads through app1 goes to the shared bucket, and a phone served by app2 shows it', async () => {
      const photo = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#8e5b3a' } })
        .jpeg()
        .toBuffer();
      // The Hub's context holds app1's cookie, so the balancer hands the upload to app1.
      const res = await hub.request.post(`${lb.url}/api/uploads`, {
        multipart: { file: { name: 'reloj-haste.jpg', mimeType: 'image/jpeg', buffer: photo } },
        headers: { origin: lb.url },
      });
      expect(res.status(), await res.text()).toBe(201);
      const uploaded = (await res.json()) as UploadResult;
      const bucket = `${s3.endpoint}/${s3.bucket}/`;
      for (const url of [uploaded.url, uploaded.thumbnailUrl]) {
        expect(url.startsWith(bucket), url).toBe(true);
        expect(await s3.get(url.slice(bucket.length)), url).not.toBeNull();
      }
      // The photo on the first lot's auction (seeded, as the lots were); a visitor's phone on app2 loads it from the bucket.
      await database.db
        .update(auctions)
        .set({ images: [uploaded.url] })
        .where(eq(auctions.id, lotAuctions[0] as string));
      const visitor = await (await contextOn('app2', null, true)).newPage();
      await visitor.goto(`${lb.url}${livePath({ id: sessionId, sellerSlug: SLUG })}`);
      const img = visitor.getByTestId('current-lot').locator('img');
      await eventually(() => img.getAttribute('src')).toBe(uploaded.thumbnailUrl);
      // Loaded under the production Content-Security-Policy, which names the bucket's plain-http address.
      await eventually(() => img.evaluate((el: HTMLImageElement) => (el.complete ? el.naturalWidth : 0))).toBeGreaterThan(0);
      expect(await servedBy('app2')).toBe('app2');
      await visitor.context().close();
    });

    it('a stream of bids from pages on both instances goes to the one instance that takes the lot’s bids; every accepted bid is stored and the lot closes once', async () => {
      const lot = lotAuctions[1] as string;
      await sellerPost(`/api/live-sessions/${sessionId}/next`);
      await eventually(() => viewer2.getByTestId('current-lot-name').innerText()).toBe('Cámara Yashica');
      const stream = bidStream(lot, [2, 3, 4, 5, 6, 7], { startAt: 500, increment: 20 });
      await sleep(6_000);
      const tally = await stream.stop();
      expect(tally.accepted.length).toBeGreaterThan(5);
      expect(tally.statuses.get('network') ?? 0).toBe(0);
      // One instance took them all, in the order it received them; both instances' viewers follow the price below.
      const takers = bidsTakenBy(lot);
      expect(takers).toHaveLength(1);
      expect(takers[0]).toMatch(/^bids\/app[12]$/);
      const late = await closedLate(lot);
      console.log(`[instances] lot 2: ${tally.accepted.length} bids accepted (all by ${takers[0]}), closed ${late} ms after its end`);
      expect(await closeAudits(database.db, lot)).toBe(1);
      await expectEveryAcceptedBidStored(lot, tally);
      const price = formatMoney((await lotRow(lot)).currentPrice as number);
      for (const viewer of [viewer1, viewer2]) await eventually(() => viewer.getByTestId('current-price').innerText()).toBe(price);
    });

    it('app2, which takes the lot’s bids, is killed mid-lot: its bids move to app1, app1 closes the lot on time, its buyers reconnect through the balancer, and no accepted bid is lost', async () => {
      const lot = lotAuctions[2] as string;
      await sellerPost(`/api/live-sessions/${sessionId}/next`);
      await eventually(() => viewer2.getByTestId('current-lot-name').innerText()).toBe('Radio Philco');
      const stream = bidStream(lot, [2, 3, 4, 5, 6, 7], { startAt: 500, increment: 20 });
      await sleep(4_000);
      expect(bidsTakenBy(lot)).toEqual(['bids/app2']);
      const killedAt = lb.requests().length;
      await app2.signal('SIGKILL');
      await sleep(4_000);
      const tally = await stream.stop();
      // Once HAProxy saw app2 gone, the lot's bids went to app1 (the ones in flight at the kill had no answer; the pages send them again).
      expect(bidsTakenBy(lot, killedAt)).toContain('bids/app1');
      expect(tally.statuses.get(201) ?? 0).toBeGreaterThan(0);
      // The buyer whose page was on app2 is now on app1, and can bid there.
      await until(async () => (await servedBy('app2')) === 'app1', 'HAProxy sends app2 browsers to app1');
      const last = Math.max(...tally.accepted.map((a) => a.amount));
      const res = await viewer2.request.post(`${lb.url}/api/auctions/${lot}/bids`, { data: { amount: last + 20 }, headers: { origin: lb.url } });
      expect(res.status(), await res.text()).toBe(201);
      tally.accepted.push({ amount: last + 20, bidderId: buyerIds[1] as string });
      await eventually(() => viewer2.getByTestId('current-price').innerText()).toBe(formatMoney(last + 20));

      const late = await closedLate(lot);
      console.log(
        `[instances] lot 3: app2 killed mid-lot; ${tally.accepted.length} bids accepted; answers ${JSON.stringify([...tally.statuses])}; closed ${late} ms after its end; ${tally.networkErrors.join('; ')}`,
      );
      // On time: the surviving instance's scheduler, not a restart, closed it (it checks every second).
      expect(late).toBeLessThan(10_000);
      expect(await closeAudits(database.db, lot)).toBe(1);
      expect((await lotRow(lot)).winnerId).toBe(buyerIds[1]);
      await expectEveryAcceptedBidStored(lot, tally);
      await eventually(() => viewer2.getByTestId('current-lot-outcome').innerText()).toBe(t.live.results.sold);
      // Video goes browser to Janus: the viewer whose instance died still watches.
      expect((await framesAdvance(viewer2, PLAYER)).width).toBeGreaterThan(0);
    });

    it('a rolling restart (app2 back, then app1 and app2 stopped with SIGTERM and started again) loses no accepted bid and no lot', async () => {
      await app2.start();
      await until(async () => (await servedBy('app2')) === 'app2', 'HAProxy sends to app2 again');
      const lot = lotAuctions[3] as string;
      await sellerPost(`/api/live-sessions/${sessionId}/next`);
      // Long enough for both restarts; the timer can only be set before the first bid.
      await sellerPost(`/api/live-sessions/${sessionId}/timer`, { seconds: ROLLING_LOT_SECONDS });
      const stream = bidStream(lot, [2, 3, 4, 5, 6, 7, 8, 9], { startAt: 500, increment: 20 });
      const exits: (number | null)[] = [];
      const events: string[] = [];
      for (const instance of instances()) {
        await sleep(2_000);
        events.push(`${new Date().toISOString()} SIGTERM ${instance.name}`);
        exits.push(await instance.signal('SIGTERM'));
        events.push(`${new Date().toISOString()} ${instance.name} exited`);
        await sleep(1_000);
        await instance.start();
        events.push(`${new Date().toISOString()} ${instance.name} started`);
        await until(async () => (await servedBy(instance.name as 'app1' | 'app2')) === instance.name, `HAProxy sends to ${instance.name} again`);
      }
      await sleep(2_000);
      const tally = await stream.stop();
      console.log(`[instances] lot 4: rolling restart; ${tally.accepted.length} bids accepted; answers ${JSON.stringify([...tally.statuses])}`);
      expect(exits).toEqual([0, 0]);
      expect(tally.accepted.length).toBeGreaterThan(10);
      // A graceful stop loses no request: one refused as its instance closed went to the other.
      expect(
        [...tally.statuses.keys()].filter((status) => status !== 201 && status !== 409),
        [...events, ...tally.networkErrors].sort().concat(lb.unusual()).join('\n'),
      ).toEqual([]);

      const late = await closedLate(lot, ROLLING_LOT_SECONDS);
      console.log(`[instances] lot 4 closed ${late} ms after its end`);
      expect(await closeAudits(database.db, lot)).toBe(1);
      await expectEveryAcceptedBidStored(lot, tally);
      const row = await lotRow(lot);
      const winner = await database.db
        .select({ amount: bids.amount })
        .from(bids)
        .where(and(eq(bids.auctionId, lot), eq(bids.bidderId, row.winnerId as string)));
      expect(winner.map((w) => w.amount)).toContain(row.currentPrice);
      for (const viewer of [viewer1, viewer2]) await eventually(() => viewer.getByTestId('current-lot-outcome').innerText()).toBe(t.live.results.sold);
      // The Hub, whose instance restarted under it, follows the show: it shows the sold price.
      await eventually(() => hub.getByTestId('current-lot-price').innerText()).toBe(formatMoney(row.currentPrice as number));
      // And the picture never depended on an instance: the seller's browser sends to Janus, the viewers' receive from it.
      await hub.getByTestId('player-badge').getByText(b.liveBadge).waitFor();
      for (const viewer of [viewer1, viewer2]) expect((await framesAdvance(viewer, PLAYER)).width).toBeGreaterThan(0);
    });
  });
}
