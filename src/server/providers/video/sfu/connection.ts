/**
 * What publishing and subscribing share about one libdatachannel peer connection in the SFU
 * worker: its configuration, the offer as screened, ICE gathering, closing, and the refusal a bad
 * request gets.
 */

import type { PeerConnection, RtcConfig, Track } from 'node-datachannel';
import { guard } from './faults.js';
import { SFU_GATHER_TIMEOUT_MS, type SfuErrorCode, type SfuWorkerConfig } from './protocol.js';
import { type CandidatePolicy, screenCandidates } from './remote-candidates.js';
import { ndcIceServers } from './sdp.js';

/** A refused request: the reply carries its code; anything else thrown is a bug, logged (worker.ts). */
export class SfuError extends Error {
  constructor(
    readonly code: SfuErrorCode,
    message: string = code,
  ) {
    super(message);
  }
}

export function rtcConfig(config: SfuWorkerConfig): RtcConfig {
  return {
    iceServers: ndcIceServers(config.iceServers ?? []) as RtcConfig['iceServers'],
    ...(config.bindAddress ? { bindAddress: config.bindAddress } : {}),
    ...(config.portRange ? { portRangeBegin: config.portRange[0], portRangeEnd: config.portRange[1] } : {}),
  };
}

/** An offer as the SFU uses it: a string, with only the candidates it may check (remote-candidates.ts). */
export function screened(offer: unknown, candidates: CandidatePolicy): string {
  if (typeof offer !== 'string') throw new SfuError('invalid', 'the offer is not text');
  return screenCandidates(offer, candidates).sdp;
}

export interface Gathering {
  /** The local description once ICE gathering completed. */
  sdp: Promise<string>;
  /** The offer was refused: the wait ends without a rejection left behind. */
  cancel(): void;
}

/**
 * Waits for `pc`'s ICE gathering. The callback is registered before the description is set (the
 * caller sets it after): the native event can fire before a late callback. The promise is handled
 * from the start: a caller that gives up on it (the offer was refused) must not leave a rejection
 * that nobody handles, which ended the whole process five seconds later.
 */
export function gather(pc: PeerConnection): Gathering {
  let timer: NodeJS.Timeout | undefined;
  const sdp = new Promise<string>((resolve, reject) => {
    timer = setTimeout(() => reject(new SfuError('failed', 'ICE gathering timed out')), SFU_GATHER_TIMEOUT_MS);
    pc.onGatheringStateChange(
      guard('gathering', (state) => {
        if (state !== 'complete') return;
        clearTimeout(timer);
        const local = pc.localDescription()?.sdp;
        if (local) resolve(local);
        else reject(new SfuError('failed', 'no local description'));
      }),
    );
  });
  sdp.catch(() => {});
  return { sdp, cancel: () => clearTimeout(timer) };
}

export function closePc(pc: PeerConnection): void {
  try {
    pc.close();
  } catch {
    // already closed
  }
}

export const isOpen = (track: Track | undefined): track is Track => {
  try {
    return Boolean(track?.isOpen());
  } catch {
    return false;
  }
};
