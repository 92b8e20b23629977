import { type Browser, chromium, type Page } from 'playwright-core';
import { FLAGS } from './browser.js';

/**
 * Chromium for the video specs (inside the loopback-only namespace): a fake camera and microphone,
 * loopback ICE candidates allowed (Chromium skips them otherwise), plain IP candidates instead of
 * mDNS names, and sound allowed without a tap (so a test can measure the viewer's audio level).
 */
export const VIDEO_BROWSER_ARGS = [
  ...FLAGS,
  '--use-fake-device-for-media-stream',
  '--use-fake-ui-for-media-stream',
  '--allow-loopback-in-peer-connection',
  '--disable-features=WebRtcHideLocalIpsWithMdns',
  '--autoplay-policy=no-user-gesture-required',
  '--disable-background-timer-throttling',
  '--disable-renderer-backgrounding',
  '--disable-backgrounding-occluded-windows',
];

export function launchVideoBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', headless: true, args: VIDEO_BROWSER_ARGS });
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
