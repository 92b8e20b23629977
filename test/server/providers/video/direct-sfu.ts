import { randomUUID } from 'node:crypto';
import type { Socket } from 'socket.io-client';
import type { SfuWorkerConfig } from '../../../../src/server/providers/video/sfu/protocol.js';
import { createSfuSupervisor, SfuRequestError, type SfuSupervisor } from '../../../../src/server/providers/video/sfu/supervisor.js';

/**
 * The embedded SFU's child process run by its own supervisor, without a server in front: what a
 * test sends reaches the worker as it is, past the server's offer check.
 */

export interface DirectSfu {
  sfu: SfuSupervisor;
  /** What the worker wrote to stderr (one entry per chunk), and the supervisor's errors. */
  said: string[];
  /** Times the child died unasked. */
  exits(): number;
}

export async function startDirectSfu(config: Partial<SfuWorkerConfig> = {}): Promise<DirectSfu> {
  const said: string[] = [];
  let exits = 0;
  const sfu = createSfuSupervisor({
    config: { bindAddress: '127.0.0.1', publicIp: null, portRange: null, iceServers: [], rembBps: 1_500_000, ...config },
    log: {
      info() {},
      warn: (obj) => said.push(String((obj as { sfu?: unknown }).sfu ?? '')),
      error: (obj) => said.push(JSON.stringify(obj)),
    },
    onEvent() {},
    onExit: () => exits++,
  });
  if (!(await sfu.ready(30_000))) throw new Error('the SFU did not start');
  return { sfu, said, exits: () => exits };
}

/**
 * The synthetic peers' signalling (test/support/rtp-peers.ts), carried straight to the SFU process
 * instead of over a socket: the requests the server makes for a page.
 */
export function directSignalling(sfu: SfuSupervisor, room: string): Socket {
  const emitWithAck = async (event: string, payload: { sdp: string }) => {
    const id = randomUUID();
    try {
      const call = event === 'videoPublish' ? ({ t: 'publish', room, pubId: id } as const) : ({ t: 'subscribe', room, peerId: id } as const);
      const answer = await sfu.request({ ...call, sdp: payload.sdp });
      return { ok: true, sdp: answer.sdp, peerId: id };
    } catch (err) {
      return { ok: false, error: err instanceof SfuRequestError ? err.code : 'unavailable' };
    }
  };
  return { timeout: () => ({ emitWithAck }) } as unknown as Socket;
}
