import { useEffect, useState } from 'react';

/** How often the meter moves: smooth to the eye, cheap on a phone. */
const METER_EVERY_MS = 100;

/**
 * The microphone level meter (SPEC §2, §9): 0–100 from the audio track's RMS, through an
 * AnalyserNode. 0 while there is no track or the track is muted.
 */
export function useMicLevel(track: MediaStreamTrack | null, muted: boolean): number {
  const [level, setLevel] = useState(0);
  useEffect(() => {
    if (!track || muted || typeof AudioContext === 'undefined') {
      setLevel(0);
      return;
    }
    const context = new AudioContext();
    const source = context.createMediaStreamSource(new MediaStream([track]));
    const analyser = context.createAnalyser();
    analyser.fftSize = 1024;
    source.connect(analyser);
    const samples = new Float32Array(analyser.fftSize);
    // A suspended context (no gesture yet) still analyses once resumed: the click on 'Vista previa' is one.
    void context.resume().catch(() => {});
    const timer = window.setInterval(() => {
      analyser.getFloatTimeDomainData(samples);
      let sum = 0;
      for (const s of samples) sum += s * s;
      const rms = Math.sqrt(sum / samples.length);
      // Speech sits around RMS 0.02–0.2: a square-root curve spreads it across the bar.
      setLevel(Math.min(100, Math.round(Math.sqrt(rms) * 160)));
    }, METER_EVERY_MS);
    return () => {
      window.clearInterval(timer);
      source.disconnect();
      void context.close().catch(() => {});
    };
  }, [track, muted]);
  return level;
}
