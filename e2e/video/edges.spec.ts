import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { livePath } from '../../src/domain/live-public.js';
import { DATA_SAVER_STORAGE_KEY } from '../../src/web/public/live/data-saver.js';
import { buildSession } from '../../test/support/factories.js';
import { janusMissingReason, janusStreamingMissingReason, type RunningJanus, startJanus } from '../../test/support/janus.js';
import { type E2eApp, startE2eApp } from '../support/app.js';
import { t } from '../support/catalogue.js';
import { type E2eUser, prepareUser, signInPage } from '../support/session.js';
import { framesAdvance, inboundBytes, launchVideoBrowser, receivesSoundOnly, recordPeerConnectionsScript } from '../support/video.js';
import { eventually, eventuallyMedia } from '../support/wait.js';

/**
 * Video past one box: the seller publishes to an origin Janus (its VideoRoom), the server forwards
 * her RTP to a Streaming mountpoint on each of two edge Janus, and viewers are spread over the
 * edges; all three are Debian's Janus in the video suite's network namespace. One edge is killed
 * (SIGKILL, as a machine dies): its viewers play again from the other, within the 10 s a buyer
 * would wait, and the Hub's viewer count stays right throughout. Ahorro de datos works through an
 * edge as through the room: the sound, no video.
 */

const b = t.livehub.broadcast;
const PLAYER = '[data-testid="live-player"]';
const VIEWERS = 4;
/** How long the viewers of a dead edge may go without a picture. */
const FAILOVER_MS = 10_000;

const missing = janusMissingReason() ?? janusStreamingMissingReason();
if (missing) {
  console.log(`SKIPPED: video through Janus edges: ${missing}`);
  describe.skip(`video through Janus edges (${missing})`, () => {
    it('spreads the viewers over the edges and moves them when one dies', () => {});
  });
} else {
  describe('video through Janus edges', () => {
    let origin: RunningJanus;
    let edges: RunningJanus[] = [];
    let app: E2eApp;
    let browser: Browser;
    let seller: E2eUser;
    let sessionId = '';
    let hub: Page;
    const viewers: Page[] = [];

    beforeAll(async () => {
      origin = await startJanus({ netns: true });
      edges = [await startJanus({ netns: true, plugins: ['streaming'] }), await startJanus({ netns: true, plugins: ['streaming'] })];
      app = await startE2eApp({ VIDEO_PROVIDER: 'janus', JANUS_URL: origin.url, JANUS_EDGES: edges.map((e) => e.url).join(',') });
      browser = await launchVideoBrowser();
      seller = await prepareUser(app, { email: 'orilla@ejemplo.mx', name: 'Olga Orilla', roles: ['seller'], companyId: 'edges-co', companyName: 'Edges Co' });
      const session = await buildSession(app.ctx.db, { sellerId: seller.id, companyId: 'edges-co', title: 'Show por las orillas', sellerSlug: 'edges-co' });
      sessionId = session.id;
    });
    afterAll(async () => {
      await browser?.close();
      await app?.close();
      for (const janus of [origin, ...edges]) await janus?.stop();
    });

    /** Each edge's viewers as the server last read them from its mountpoints. */
    const load = () => (app.ctx.video.edges?.load() ?? []).map((e) => e.viewers);

    async function openViewer(): Promise<Page> {
      const phone = await browser.newContext({ locale: 'es-MX', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
      const page = await phone.newPage();
      page.setDefaultTimeout(30_000);
      await page.goto(`${app.url}${livePath({ id: sessionId, sellerSlug: 'edges-co' })}`);
      await page.getByTestId('live-session').waitFor();
      return page;
    }

    it('the seller publishes to the origin, and viewers spread over both edges, the first ones there before she went live, receive moving video', async () => {
      // Two buyers wait on the page before the show's first broadcast: their edges have no mountpoint for it yet.
      for (let i = 0; i < VIEWERS / 2; i++) viewers.push(await openViewer());

      const context = await browser.newContext({ locale: 'es-MX', timezoneId: 'America/Mexico_City', viewport: { width: 1280, height: 900 } });
      hub = await context.newPage();
      hub.setDefaultTimeout(30_000);
      await signInPage(hub, app, seller);
      await hub.goto(`${app.url}/admin/livehub?session=${sessionId}`);
      await hub.getByTestId('transmission-panel').waitFor();
      await hub.getByRole('button', { name: b.start, exact: true }).click();
      await hub.getByTestId('player-badge').getByText(b.liveBadge).waitFor({ timeout: 60_000 });

      // Two more once she is live.
      for (let i = 0; i < VIEWERS / 2; i++) viewers.push(await openViewer());
      for (const page of viewers) expect((await framesAdvance(page, PLAYER, 15, 45_000)).width).toBeGreaterThan(0);
      // The least-loaded edge takes each viewer: two and two.
      await eventually(() => load(), 15_000).toEqual([VIEWERS / 2, VIEWERS / 2]);
      await eventuallyMedia(() => hub.getByTestId('viewer-count').textContent()).toBe(String(VIEWERS));
    });

    it('with Ahorro de datos a viewer on an edge hears the show and receives no video, until they turn it off', async () => {
      const context = await browser.newContext({ locale: 'es-MX', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
      try {
        await context.addInitScript(`localStorage.setItem(${JSON.stringify(DATA_SAVER_STORAGE_KEY)}, 'on')`);
        await context.addInitScript(recordPeerConnectionsScript());
        const viewer = await context.newPage();
        viewer.setDefaultTimeout(30_000);
        await viewer.goto(`${app.url}${livePath({ id: sessionId, sellerSlug: 'edges-co' })}`);
        await viewer.getByTestId('audio-only-note').waitFor();
        await eventuallyMedia(() => inboundBytes(viewer, 'audio'), 30_000).toBeGreaterThan(0);
        expect(await receivesSoundOnly(viewer)).toEqual({ video: false, audio: true });

        await viewer.getByTestId('data-saver-toggle').click();
        await viewer.getByTestId('audio-only-note').waitFor({ state: 'detached' });
        expect((await framesAdvance(viewer, PLAYER, 15, 45_000)).width).toBeGreaterThan(0);
      } finally {
        await context.close();
      }
      await eventually(() => load(), 15_000).toEqual([VIEWERS / 2, VIEWERS / 2]);
    });

    it('an edge killed with SIGKILL: its viewers play again from the other edge within 10 s, and the viewer count stays right', async () => {
      const killedAt = Date.now();
      await (edges[0] as RunningJanus).kill('SIGKILL');
      // Every viewer shows moving video again (the ones on the surviving edge never stopped).
      const back = await Promise.all(
        viewers.map(async (page) => {
          await framesAdvance(page, PLAYER, 15, FAILOVER_MS + 20_000);
          return Date.now() - killedAt;
        }),
      );
      console.log(`[edges] every viewer plays again ${Math.max(...back)} ms after the edge died (${back.join(', ')})`);
      expect(Math.max(...back)).toBeLessThan(FAILOVER_MS);
      await eventually(() => load(), 15_000).toEqual([0, VIEWERS]);
      await eventuallyMedia(() => hub.getByTestId('viewer-count').textContent()).toBe(String(VIEWERS));
    });
  });
}
