import { type Browser, chromium, type Page } from 'playwright-core';
import { type RunningJanus, startJanus } from '../../test/support/janus.js';
import type { E2eApp } from './app.js';
import { disabledFeatures, FLAGS } from './browser.js';

/**
 * Chromium for the video specs (inside the loopback-only namespace): a fake camera and microphone,
 * loopback ICE candidates allowed (Chromium skips them otherwise), plain IP candidates instead of
 * mDNS names, and sound allowed without a tap (so a test can measure the viewer's audio level).
 * One --disable-features: Chromium reads only the last (browser.ts).
 */
export const VIDEO_BROWSER_ARGS = [
  ...FLAGS,
  '--use-fake-device-for-media-stream',
  '--use-fake-ui-for-media-stream',
  '--allow-loopback-in-peer-connection',
  disabledFeatures('WebRtcHideLocalIpsWithMdns'),
  '--autoplay-policy=no-user-gesture-required',
  '--disable-background-timer-throttling',
  '--disable-renderer-backgrounding',
  '--disable-backgrounding-occluded-windows',
];

/**
 * `soundNeedsTap`: Chromium's own autoplay rule (sound only after a tap on the page), as a buyer's
 * browser has; by default sound plays without one.
 */
export function launchVideoBrowser(opts: { soundNeedsTap?: boolean } = {}): Promise<Browser> {
  const args = opts.soundNeedsTap ? VIDEO_BROWSER_ARGS.filter((a) => !a.startsWith('--autoplay-policy')) : VIDEO_BROWSER_ARGS;
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', headless: true, args });
}

/**
 * Resolves with the video's size once `frames` new frames were presented (requestVideoFrameCallback):
 * the video moves, not a frozen first frame. Rejects after `timeoutMs`.
 */
export async function framesAdvance(page: Page, selector: string, frames = 15, timeoutMs = 20_000): Promise<{ width: number; height: number }> {
  return page.evaluate(
    ({ selector, frames, timeoutMs }) =>
      new Promise<{ width: number; height: number }>((resolve, reject) => {
        const started = performance.now();
        let seen = 0;
        const timer = setTimeout(() => reject(new Error(`only ${seen} frames in ${timeoutMs} ms`)), timeoutMs);
        const watch = () => {
          const video = document.querySelector<HTMLVideoElement>(selector);
          if (!video) {
            if (performance.now() - started < timeoutMs) setTimeout(watch, 100);
            return;
          }
          const onFrame = () => {
            seen++;
            if (seen >= frames && video.videoWidth > 0) {
              clearTimeout(timer);
              resolve({ width: video.videoWidth, height: video.videoHeight });
            } else video.requestVideoFrameCallback(onFrame);
          };
          video.requestVideoFrameCallback(onFrame);
        };
        watch();
      }),
    { selector, frames, timeoutMs },
  );
}

/** The loudest RMS level (0–1) of the audio the player receives, over `ms`. Chromium's fake microphone beeps. */
export async function peakAudioLevel(page: Page, selector: string, ms = 2500): Promise<number> {
  return page.evaluate(
    ({ selector, ms }) =>
      new Promise<number>((resolve, reject) => {
        const video = document.querySelector<HTMLVideoElement>(selector);
        const stream = video?.srcObject;
        if (!(stream instanceof MediaStream) || stream.getAudioTracks().length === 0) return reject(new Error('no audio track on the player'));
        const context = new AudioContext();
        const source = context.createMediaStreamSource(new MediaStream(stream.getAudioTracks()));
        const analyser = context.createAnalyser();
        analyser.fftSize = 2048;
        source.connect(analyser);
        const samples = new Float32Array(analyser.fftSize);
        let peak = 0;
        const timer = setInterval(() => {
          analyser.getFloatTimeDomainData(samples);
          let sum = 0;
          for (const s of samples) sum += s * s;
          peak = Math.max(peak, Math.sqrt(sum / samples.length));
        }, 20);
        setTimeout(() => {
          clearInterval(timer);
          void context.close();
          resolve(peak);
        }, ms);
      }),
    { selector, ms },
  );
}

export interface SizeSample {
  /** ms since the timeline started. */
  at: number;
  width: number;
  height: number;
}

/**
 * The player's picture size, sampled in the page every `everyMs` until it shows `target` (or
 * `timeoutMs` passes): the whole timeline, for the report. The last sample is `target` unless the
 * time ran out.
 */
export async function sizeTimeline(
  page: Page,
  selector: string,
  target: { width: number; height: number },
  timeoutMs: number,
  everyMs = 500,
): Promise<SizeSample[]> {
  return page.evaluate(
    ({ selector, target, timeoutMs, everyMs }) =>
      new Promise<SizeSample[]>((resolve) => {
        const started = performance.now();
        const samples: SizeSample[] = [];
        const sample = () => {
          const video = document.querySelector<HTMLVideoElement>(selector);
          const size = { at: Math.round(performance.now() - started), width: video?.videoWidth ?? 0, height: video?.videoHeight ?? 0 };
          const last = samples[samples.length - 1];
          if (!last || last.width !== size.width || last.height !== size.height) samples.push(size);
          if ((size.width === target.width && size.height === target.height) || size.at >= timeoutMs) {
            clearInterval(timer);
            if (samples[samples.length - 1] !== size) samples.push(size);
            resolve(samples);
          }
        };
        const timer = setInterval(sample, everyMs);
        sample();
      }),
    { selector, target, timeoutMs, everyMs },
  );
}

/** Whether the player plays with its sound on: not muted and not paused (a refused play() leaves it paused). */
export async function playerSound(page: Page, selector: string): Promise<{ muted: boolean; paused: boolean }> {
  return page.locator(selector).evaluate((video: HTMLVideoElement) => ({ muted: video.muted, paused: video.paused }));
}

/**
 * A browser that plays sound only right after a tap, per element, as phones' browsers do (iOS
 * Safari): an unmuted player that starts a new stream without a tap within the last second is
 * paused, and its play() refused with NotAllowedError. Chromium itself allows sound for the rest
 * of the page's life once the page was tapped.
 */
export function soundOnlyAfterTapScript(): string {
  return `(() => {
    let tappedAt = -Infinity;
    for (const type of ['pointerup', 'touchend', 'click', 'keydown'])
      addEventListener(type, (e) => { if (e.isTrusted) tappedAt = performance.now(); }, true);
    const allowed = (video) => video.muted || performance.now() - tappedAt < 1000;
    const play = HTMLMediaElement.prototype.play;
    HTMLMediaElement.prototype.play = function () {
      if (allowed(this)) return play.call(this);
      this.pause();
      return Promise.reject(new DOMException('play() needs a tap to play sound', 'NotAllowedError'));
    };
    // The autoplay attribute starts playback without play(): refused the same way.
    document.addEventListener('play', (e) => { if (e.target instanceof HTMLMediaElement && !allowed(e.target)) e.target.pause(); }, true);
  })();`;
}

/** Keeps every RTCPeerConnection the page makes in `window.peerConnections`, for `videoSenderPreferences`. */
export function recordPeerConnectionsScript(): string {
  return `(() => {
    const Native = window.RTCPeerConnection;
    window.peerConnections = [];
    window.RTCPeerConnection = function (...args) {
      const pc = new Native(...args);
      window.peerConnections.push(pc);
      return pc;
    };
    window.RTCPeerConnection.prototype = Native.prototype;
    Object.setPrototypeOf(window.RTCPeerConnection, Native);
  })();`;
}

/** RTP payload bytes of `kind` received so far on the page's open peer connections (needs recordPeerConnectionsScript). */
export async function inboundBytes(page: Page, kind: 'audio' | 'video'): Promise<number> {
  return page.evaluate(async (kind) => {
    const pcs = (window as unknown as { peerConnections?: RTCPeerConnection[] }).peerConnections ?? [];
    let total = 0;
    for (const pc of pcs.filter((p) => p.connectionState !== 'closed')) {
      (await pc.getStats()).forEach((report: { type: string; kind?: string; bytesReceived?: number }) => {
        if (report.type === 'inbound-rtp' && report.kind === kind) total += report.bytesReceived ?? 0;
      });
    }
    return total;
  }, kind);
}

/**
 * Over 2 s (after a settling second, for whatever arrived while the subscription was set up), the
 * page receives sound and no video bytes at all: *Ahorro de datos* at work (needs recordPeerConnectionsScript).
 */
export async function receivesSoundOnly(page: Page): Promise<{ video: boolean; audio: boolean }> {
  await page.waitForTimeout(1000);
  const videoBefore = await inboundBytes(page, 'video');
  const audioBefore = await inboundBytes(page, 'audio');
  await page.waitForTimeout(2000);
  return { video: (await inboundBytes(page, 'video')) > videoBefore, audio: (await inboundBytes(page, 'audio')) > audioBefore };
}

/** The degradationPreference of each video sender on the page's open peer connections ('default' when unset). */
export async function videoSenderPreferences(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const pcs = (window as unknown as { peerConnections?: RTCPeerConnection[] }).peerConnections ?? [];
    return pcs
      .filter((pc) => pc.connectionState !== 'closed')
      .flatMap((pc) => pc.getSenders().filter((s) => s.track?.kind === 'video'))
      .map((s) => (s.getParameters() as { degradationPreference?: string }).degradationPreference ?? 'default');
  });
}

/** A video provider a walkthrough runs through: how the server is configured for it, and how to stop it. */
export interface ProviderSetup {
  name: 'embedded' | 'janus';
  /** The server's environment for this provider; may start a service (Janus) first. */
  env(): Promise<Record<string, string>>;
  stop?(): Promise<void>;
  /** Kills the provider's media process mid-show and returns once it is gone (embedded only). */
  killMedia?: (app: E2eApp) => void;
}

export const embeddedProvider: ProviderSetup = {
  name: 'embedded',
  // libjuice skips 127.x unless bound (VIDEO.md).
  env: async () => ({ VIDEO_PROVIDER: 'embedded', VIDEO_BIND_ADDRESS: '127.0.0.1' }),
  killMedia: (app) => {
    const pid = app.ctx.video.debug?.workerPid();
    if (!pid) throw new Error('no SFU process to kill');
    process.kill(pid, 'SIGKILL');
  },
};

let janus: RunningJanus | null = null;
/** Janus from Debian, started in the test's network namespace; one per test file. */
export const janusProvider: ProviderSetup = {
  name: 'janus',
  env: async () => {
    janus = await startJanus({ netns: true });
    return { VIDEO_PROVIDER: 'janus', JANUS_URL: janus.url };
  },
  stop: async () => {
    await janus?.stop();
    janus = null;
  },
};
