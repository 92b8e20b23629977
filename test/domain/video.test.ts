import { describe, expect, it } from 'vitest';
import { agoraBars, formatElapsed, isBroadcasting, micTone, offerAsDtlsClient, qualityBars, qualityTone } from '../../src/domain/video.js';

describe('the transmission panel’s readouts (SPEC §9, VIDEO.md)', () => {
  it('turns loss, RTT and jitter into 0–5 bars', () => {
    expect(qualityBars(null, null, null)).toBe(0);
    expect(qualityBars(0, 20, 5)).toBe(5);
    expect(qualityBars(0.5, 99, 29)).toBe(5);
    expect(qualityBars(1, 20, 5)).toBe(4);
    expect(qualityBars(0, 150, 5)).toBe(4);
    expect(qualityBars(5, 250, 70)).toBe(3);
    expect(qualityBars(9, 400, 100)).toBe(2);
    expect(qualityBars(12, 20, 5)).toBe(1);
    expect(qualityBars(null, 600, null)).toBe(1);
    // With RTT only (no receiver report yet), loss and jitter count as none.
    expect(qualityBars(null, 40, null)).toBe(5);
  });

  it('reads Agora’s network quality (0 unknown, 1 best, 6 down)', () => {
    expect([0, 1, 2, 3, 4, 5, 6].map(agoraBars)).toEqual([0, 5, 4, 3, 2, 1, 0]);
    expect(agoraBars(2.5)).toBe(0);
  });

  it('colours at 2 and 4 bars, and the microphone at 30 and 70', () => {
    expect([0, 1, 2, 3, 4, 5].map(qualityTone)).toEqual(['poor', 'poor', 'fair', 'fair', 'good', 'good']);
    expect([0, 29, 30, 69, 70, 100].map(micTone)).toEqual(['low', 'low', 'mid', 'mid', 'high', 'high']);
  });

  it('shows the elapsed clock as mm:ss, then h:mm:ss', () => {
    expect(formatElapsed(0)).toBe('00:00');
    expect(formatElapsed(65_400)).toBe('01:05');
    expect(formatElapsed(3_600_000 + 61_000)).toBe('1:01:01');
    expect(formatElapsed(-5)).toBe('00:00');
  });

  it('knows a broadcast is on from its start and stop times', () => {
    expect(isBroadcasting({ lastStreamStart: null, lastStreamStop: null })).toBe(false);
    expect(isBroadcasting({ lastStreamStart: 10, lastStreamStop: null })).toBe(true);
    expect(isBroadcasting({ lastStreamStart: 10, lastStreamStop: 20 })).toBe(false);
    expect(isBroadcasting({ lastStreamStart: 30, lastStreamStop: 20 })).toBe(true);
  });
});

describe('a media server’s offer to a viewer', () => {
  it('makes the media server the DTLS client of a viewer, in every section and whatever the line ending', () => {
    for (const eol of ['\r\n', '\n']) {
      const offer = ['v=0', 'm=video 9 UDP/TLS/RTP/SAVPF 96', 'a=setup:actpass', 'm=audio 9 UDP/TLS/RTP/SAVPF 111', 'a=setup:actpass', ''].join(eol);
      const out = offerAsDtlsClient(offer);
      expect(out.split(eol).filter((l) => l.startsWith('a=setup:'))).toEqual(['a=setup:active', 'a=setup:active']);
      expect(out.replaceAll('a=setup:active', 'a=setup:actpass')).toBe(offer);
    }
  });
});
