import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPage, PLAYWRIGHT_DISABLED_FEATURES } from '../support/browser.js';

/**
 * The Chromium every spec runs: its one --disable-features switch keeps Playwright's own list (Chromium
 * reads only the last such switch) and drops the address bar's popup pages, which cost CPU in every
 * window of every spec.
 */
describe('the test browser', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("repeats every feature Playwright turns off, so that its switch replacing Playwright's loses none", () => {
    const root = path.dirname(createRequire(import.meta.url).resolve('playwright-core'));
    const bundle = readFileSync(path.join(root, 'lib', 'coreBundle.js'), 'utf8');
    const list = /disabledFeatures = \[([\s\S]*?)\]\.filter\(Boolean\)/.exec(bundle)?.[1];
    expect(list, "playwright-core's disabledFeatures list was not found: read its chromiumSwitches and update browser.ts").toBeDefined();
    const playwrights = [...(list ?? '').replace(/\/\/.*$/gm, '').matchAll(/"([^"]+)"/g)].map((m) => m[1]);
    expect(playwrights.length).toBeGreaterThan(5);
    expect(PLAYWRIGHT_DISABLED_FEATURES).toEqual(expect.arrayContaining(playwrights));
  });

  it('opens pages without the address bar popup pages Chromium builds for each window', async () => {
    const pages = [await newPage(browser), await newPage(browser, { mobile: true })];
    for (const page of pages) await page.goto('about:blank');
    const cdp = await browser.newBrowserCDPSession();
    const { targetInfos } = (await cdp.send('Target.getTargets')) as { targetInfos: { type: string; url: string }[] };
    await cdp.detach();
    expect(targetInfos.filter((t) => t.type === 'page')).toHaveLength(2);
    expect(targetInfos.filter((t) => t.url.startsWith('chrome://omnibox-popup'))).toEqual([]);
    for (const page of pages) await page.context().close();
  });
});
