import { type Browser, chromium, type Page } from 'playwright-core';

/** Every spec's Chromium flags (no sandbox, no GPU, nothing phoning home). */
export const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/** Debian's Chromium (CHROMIUM_PATH, default /usr/bin/chromium), headless. */
export function launchBrowser(opts: { camera?: boolean } = {}): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    headless: true,
    args: opts.camera ? [...FLAGS, '--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream'] : FLAGS,
  });
}

/** A fresh browser context (own cookies) with a phone-or-desktop viewport, in Mexico's locale and time zone. */
export async function newPage(browser: Browser, opts: { mobile?: boolean } = {}): Promise<Page> {
  const context = await browser.newContext({
    locale: 'es-MX',
    timezoneId: 'America/Mexico_City',
    viewport: opts.mobile ? { width: 390, height: 844 } : { width: 1280, height: 800 },
    ...(opts.mobile ? { isMobile: true, hasTouch: true } : {}),
  });
  const page = await context.newPage();
  // A click or a wait for an element: 30 s, for a loaded 2-core machine where a page's render has taken
  // more than 15 s (an action that can happen returns as soon as it can).
  page.setDefaultTimeout(30_000);
  return page;
}
