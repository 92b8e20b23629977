/**
 * The IPC between the server (providers/video/embedded.ts) and the SFU child process (worker.ts).
 * Requests carry an id and get exactly one reply; events flow from the child on their own. Peer
 * ids are chosen by the server, so it can forget a peer without waiting for the child.
 */

/** What the child needs at start (passed in the SFU_CONFIG environment variable, as JSON). */
export interface SfuWorkerConfig {
  /** libjuice skips 127.x addresses unless bound: tests bind 127.0.0.1; on a LAN leave it null. */
  bindAddress: string | null;
  /** VIDEO_PUBLIC_IP: the address written into the host candidates sent to browsers. */
  publicIp: string | null;
  portRange: [number, number] | null;
  /** ICE_SERVERS as the browser takes them; the child converts them for libdatachannel. */
  iceServers: { urls: string | string[]; username?: string; credential?: string }[];
  /** REMB sent to publishers, bits per second. */
  rembBps: number;
}

/** libdatachannel answers within milliseconds on a LAN; this only bounds a stuck ICE gathering in the worker. */
export const SFU_GATHER_TIMEOUT_MS = 5000;

export type SfuRequest =
  | { t: 'publish'; id: number; room: string; pubId: string; sdp: string }
  /** A viewer's offer; the reply carries the SFU's answer. `audioOnly`: 'Ahorro de datos', no video is sent to it. */
  | { t: 'subscribe'; id: number; room: string; peerId: string; sdp: string; audioOnly?: boolean }
  /** Ends one publisher or viewer (no error when it is already gone). */
  | { t: 'leave'; id: number; peerId: string }
  /** Ends the room's publisher and every viewer. */
  | { t: 'endRoom'; id: number; room: string }
  | { t: 'stats'; id: number }
  /**
   * Copies `pubId`'s media in `room`, from its next keyframe, to a recorder listening on these
   * loopback UDP ports (recording-tap.ts); replaces the room's earlier copy. 'not_publishing'
   * when `pubId` is not the room's publisher any more.
   */
  | { t: 'record'; id: number; room: string; pubId: string; ports: { video: number; audio: number } }
  /** Stops the room's copy (no error when there is none). */
  | { t: 'stopRecord'; id: number; room: string }
  /** Asks the room's publisher for a keyframe, while its media is recorded (a lot begins: its clip starts on it). */
  | { t: 'keyframe'; id: number; room: string };

export type SfuErrorCode = 'invalid' | 'not_publishing' | 'failed';

export type SfuReply =
  | { t: 'reply'; id: number; ok: true; sdp?: string; stats?: SfuStats }
  | { t: 'reply'; id: number; ok: false; error: SfuErrorCode; message?: string };

export type SfuEvent =
  | { t: 'ready'; pid: number }
  /** A publisher's peer connection changed state ('connected', 'failed', 'closed', …). */
  | { t: 'publisherState'; room: string; pubId: string; state: string }
  | { t: 'viewerState'; room: string; peerId: string; state: string }
  /** A recording's first packet (a keyframe) went to its recorder at `at` (epoch ms): where the recording's clock starts. */
  | { t: 'recordStarted'; room: string; pubId: string; at: number };

export type SfuMessage = SfuReply | SfuEvent;

export interface SfuStats {
  rooms: number;
  publishers: number;
  viewers: number;
  rtpIn: number;
  rtpOut: number;
  keyframeRequests: number;
  pliFromViewers: number;
  /** Viewers whose video began with the cached group of pictures instead of a keyframe request. */
  gopReplays: number;
  /** Packets copied to recorders. */
  rtpRecorded: number;
}
