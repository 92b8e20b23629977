import { type LinkStats, NO_LINK_STATS, qualityBars } from '../../domain/video.js';

/**
 * The transmission panel's readouts from a publishing RTCPeerConnection (VIDEO.md "Quality readouts"):
 * uplink bars from the SFU's receiver reports (`remote-inbound-rtp`: loss, RTT, jitter), downlink
 * bars from the path's RTT and the receiver reports' loss of what comes back, send bitrate from the
 * change in the video's `bytesSent`, RTT from the active candidate pair. Each call is one sample.
 */
export function publisherStatsSampler(pc: () => RTCPeerConnection | null): () => Promise<LinkStats> {
  let previous: { bytes: number; at: number } | null = null;
  return async () => {
    const peer = pc();
    if (!peer || peer.connectionState === 'closed') return NO_LINK_STATS;
    const report = await peer.getStats();
    let bytes: number | null = null;
    let at = 0;
    let pairRtt: number | null = null;
    let remote: { loss: number; rtt: number | null; jitter: number | null } | null = null;
    report.forEach((s: Record<string, unknown>) => {
      if (s.type === 'outbound-rtp' && s.kind === 'video') {
        bytes = (bytes ?? 0) + Number(s.bytesSent ?? 0);
        at = Number(s.timestamp ?? 0);
      }
      if (s.type === 'remote-inbound-rtp' && s.kind === 'video') {
        remote = {
          loss: Number(s.fractionLost ?? 0) * 100,
          rtt: typeof s.roundTripTime === 'number' ? s.roundTripTime * 1000 : null,
          jitter: typeof s.jitter === 'number' ? s.jitter * 1000 : null,
        };
      }
      if (s.type === 'candidate-pair' && s.nominated && s.state === 'succeeded' && typeof s.currentRoundTripTime === 'number') {
        pairRtt = s.currentRoundTripTime * 1000;
      }
    });
    let sendKbps: number | null = null;
    if (bytes !== null) {
      if (previous && at > previous.at) sendKbps = Math.round((8 * (bytes - previous.bytes)) / (at - previous.at));
      previous = { bytes, at };
    }
    const r = remote as { loss: number; rtt: number | null; jitter: number | null } | null;
    const rttMs = pairRtt ?? r?.rtt ?? null;
    return {
      uplinkBars: r ? qualityBars(r.loss, r.rtt ?? rttMs, r.jitter) : qualityBars(null, rttMs, null),
      downlinkBars: qualityBars(null, rttMs, null),
      sendKbps,
      rttMs: rttMs === null ? null : Math.round(rttMs),
    };
  };
}
