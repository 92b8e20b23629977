/**
 * bench:replay's phone: the ended show's public page opened in Chromium as a 390 px phone, on a fresh
 * context each time (empty cache), and the replay's first frame and its seeks timed where the
 * browser shows them (requestVideoFrameCallback: a frame handed to the compositor).
 *
 * Per open: the player shown (the `<video>` on the page, from the navigation's start), play pressed
 * as soon as it shows (by script: Chromium runs with autoplay allowed, as a tap would), the first
 * frame after it (from the navigation's start, and from the press), then a seek to each of the
 * given moments as a chapter's tap does (the player's `currentTime`), timed to the first frame
 * shown within a second of it.
 *
 * Profiles: `loopback` (this machine's network as it is: the server's and the decoder's own time)
 * and `slow4g` (Lighthouse's mobile throttling, the one bench:weight's scores use: 150 ms round
 * trips, 1.6 Mbit/s down, 750 kbit/s up, the CPU slowed 4×, through the DevTools protocol). This is
 * a desktop Chromium's decoder on this machine, not a phone's.
 */
import { type Browser, type BrowserContext, chromium } from 'playwright-core';
import { PLAYWRIGHT_FLAGS } from '../e2e/support/browser.js';
import { percentile, round } from './support.js';

export type PhoneProfile = 'loopback' | 'slow4g';
export const PHONE_PROFILES: readonly PhoneProfile[] = ['loopback', 'slow4g'];

const SLOW_4G = { latency: 150, downloadThroughput: (1.6 * 1_000_000) / 8, uploadThroughput: (750 * 1000) / 8, cpuSlowdown: 4 };
/** How far from its moment a seek's frame may be (a frame a second away is another moment). */
const SEEK_TOLERANCE_MS = 1000;
const WAIT_MS = 60_000;

export interface PhoneOptions {
  chromium: string;
  /** The replay's public page. */
  url: string;
  /** The moments to seek to, in ms on the replay's clock (the chapters' starts). */
  seekToMs: number[];
  profiles: readonly PhoneProfile[];
  opens: number;
  log(msg: string): void;
}

interface Open {
  playerShownMs: number;
  firstFrameMs: number;
  firstFrameAfterPlayMs: number;
  seekFrameMs: (number | null)[];
}

const summary = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: round(percentile(sorted, 50) ?? 0, 0), max: round(sorted.at(-1) ?? 0, 0), runs: values.map((v) => round(v, 0)) };
};

async function openOnce(browser: Browser, opts: PhoneOptions, profile: PhoneProfile): Promise<Open> {
  const context: BrowserContext = await browser.newContext({
    locale: 'es-MX',
    timezoneId: 'America/Mexico_City',
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 3,
    isMobile: true,
    hasTouch: true,
  });
  try {
    const page = await context.newPage();
    page.setDefaultTimeout(WAIT_MS);
    if (profile === 'slow4g') {
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: SLOW_4G.latency,
        downloadThroughput: SLOW_4G.downloadThroughput,
        uploadThroughput: SLOW_4G.uploadThroughput,
      });
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: SLOW_4G.cpuSlowdown });
    }
    await page.goto(opts.url, { waitUntil: 'commit' });
    const video = page.getByTestId('replay-video');
    await video.waitFor({ state: 'visible' });
    // The page's own clock, from its navigation's start: the frames' times are on it too.
    const playerShownMs = await page.evaluate(() => performance.now());
    const played = await video.evaluate(
      (v: HTMLVideoElement, waitMs) =>
        new Promise<{ pressedAt: number; frameAt: number }>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`no frame ${waitMs} ms after play`)), waitMs);
          const pressedAt = performance.now();
          v.requestVideoFrameCallback((now) => {
            clearTimeout(timer);
            resolve({ pressedAt, frameAt: now });
          });
          v.play().catch((err: unknown) => reject(new Error(`play() refused: ${String(err)}`)));
        }),
      WAIT_MS,
    );
    const seekFrameMs: (number | null)[] = [];
    for (const target of opts.seekToMs) {
      seekFrameMs.push(
        await video.evaluate(
          // No named functions in here: tsx would wrap them in a helper the page does not have.
          async (v: HTMLVideoElement, { target, tolerance, waitMs }) => {
            const started = performance.now();
            v.currentTime = target / 1000;
            while (performance.now() - started < waitMs) {
              const frame = await Promise.race([
                new Promise<{ now: number; mediaTime: number }>((resolve) =>
                  v.requestVideoFrameCallback((now, meta) => resolve({ now, mediaTime: meta.mediaTime })),
                ),
                new Promise<null>((resolve) => setTimeout(() => resolve(null), waitMs - (performance.now() - started))),
              ]);
              if (frame === null) return null;
              if (Math.abs(frame.mediaTime * 1000 - target) <= tolerance) return frame.now - started;
            }
            return null;
          },
          { target, tolerance: SEEK_TOLERANCE_MS, waitMs: WAIT_MS },
        ),
      );
    }
    return { playerShownMs, firstFrameMs: played.frameAt, firstFrameAfterPlayMs: played.frameAt - played.pressedAt, seekFrameMs };
  } finally {
    await context.close();
  }
}

/** Every profile's figures, and whether every open showed a first frame and every seek its moment. */
export async function measurePhone(opts: PhoneOptions) {
  // Autoplay allowed: play() stands for the buyer's tap on the player.
  const browser = await chromium.launch({
    executablePath: opts.chromium,
    headless: true,
    args: [...PLAYWRIGHT_FLAGS, '--autoplay-policy=no-user-gesture-required'],
  });
  const profiles: Record<string, unknown> = {};
  let ok = true;
  try {
    for (const profile of opts.profiles) {
      const opens: Open[] = [];
      for (let i = 0; i < opts.opens; i++) {
        opts.log(`phone (${profile}): open ${i + 1} of ${opts.opens}`);
        opens.push(await openOnce(browser, opts, profile));
      }
      const seeks = opens.flatMap((o) => o.seekFrameMs);
      const landed = seeks.filter((s): s is number => s !== null);
      ok &&= landed.length === seeks.length;
      profiles[profile] = {
        opens: opens.length,
        playerShownMs: summary(opens.map((o) => o.playerShownMs)),
        firstFrameMs: summary(opens.map((o) => o.firstFrameMs)),
        firstFrameAfterPlayMs: summary(opens.map((o) => o.firstFrameAfterPlayMs)),
        seekFrameMs: { count: seeks.length, missed: seeks.length - landed.length, ...summary(landed) },
      };
    }
  } finally {
    await browser.close();
  }
  return { profiles, slow4g: { rttMs: SLOW_4G.latency, downKbps: 1600, upKbps: 750, cpuSlowdown: SLOW_4G.cpuSlowdown }, ok };
}
