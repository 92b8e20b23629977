import { type Browser, chromium, type Page } from 'playwright-core';

/** Every spec's Chromium switches (no sandbox, no GPU, nothing phoning home), for any launcher. */
export const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/**
 * The features playwright-core turns off in every Chromium it launches (its chromiumSwitches.ts).
 * Chromium reads only the LAST --disable-features it is given and Playwright passes its own first, so
 * a switch of ours must repeat them; e2e/shell/test-browser.spec.ts fails when Playwright's list grows.
 */
export const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];

/**
 * The address bar's popups, which Chromium builds as web pages (WebUI) for every window it opens,
 * headless too: two chrome://omnibox-popup pages and their renderer per test page, for a bar no test
 * types in. Without them two browser specs took about a sixth less CPU on the 2-core machine.
 */
export const UNUSED_WINDOW_UI = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup', 'WebUIOmniboxFullPopup'];

/** The one --disable-features switch of a Playwright launch: Playwright's, the unused window UI, and `more`. */
export function disabledFeatures(...more: string[]): string {
  return `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...UNUSED_WINDOW_UI, ...more].join(',')}`;
}

/** Every spec's switches for a Playwright launch. */
export const PLAYWRIGHT_FLAGS = [...FLAGS, disabledFeatures()];

/** Debian's Chromium (CHROMIUM_PATH, default /usr/bin/chromium), headless. */
export function launchBrowser(opts: { camera?: boolean } = {}): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    headless: true,
    args: opts.camera ? [...PLAYWRIGHT_FLAGS, '--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream'] : PLAYWRIGHT_FLAGS,
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
