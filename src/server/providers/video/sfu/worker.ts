/**
 * The embedded SFU's child process (VIDEO.md): one libdatachannel peer per publisher and viewer,
 * RTP forwarded from each room's publisher to its viewers with the payload type and SSRC
 * rewritten. It lives in its own process because a native fault here must not take the server
 * down; the server (embedded.ts) restarts it. It exits when the server's IPC channel closes.
 *
 * This file is the process: requests in, replies and events out. A publish is read in
 * publish.ts, a subscribe in subscribe.ts, the media between them in forwarding.ts, and the rooms
 * they share in rooms.ts.
 */

import ndc from 'node-datachannel';
import { SfuError } from './connection.js';
import { guard, keepServing, report } from './faults.js';
import { requestKeyframe } from './forwarding.js';
import type { SfuEvent, SfuReply, SfuRequest, SfuStats, SfuWorkerConfig } from './protocol.js';
import { publish } from './publish.js';
import { closeTap, openTap } from './recording-tap.js';
import { createSfu, endRoom, leave } from './rooms.js';
import { subscribe } from './subscribe.js';

keepServing();

function send(message: SfuReply | SfuEvent): void {
  if (!process.connected) return;
  try {
    // With a callback, a send that fails as the server goes away is not an 'error' event on the process.
    process.send?.(message, undefined, {}, () => {});
  } catch {
    // the channel closed in between: 'disconnect' ends the process
  }
}

const sfu = createSfu(JSON.parse(process.env.SFU_CONFIG ?? '{}') as SfuWorkerConfig, send);

ndc.initLogger(
  'Error',
  guard('logger', (_level, message) => report('libdatachannel', message)),
);

function stats(): SfuStats {
  let publishers = 0;
  for (const r of sfu.rooms.values()) if (r.publisher) publishers++;
  return { rooms: sfu.rooms.size, publishers, viewers: sfu.viewers.size, ...sfu.counters };
}

const isText = (...values: unknown[]) => values.every((value) => typeof value === 'string');
const isPort = (value: unknown) => Number.isInteger(value) && (value as number) > 0 && (value as number) < 65536;

async function handle(req: SfuRequest): Promise<SfuReply> {
  // The server sends well-formed requests; a malformed one is still only refused.
  if (req.t === 'publish' && !isText(req.room, req.pubId)) throw new SfuError('invalid', 'bad publish request');
  if (req.t === 'subscribe' && !isText(req.room, req.peerId)) throw new SfuError('invalid', 'bad subscribe request');
  if (req.t === 'record' && !(isText(req.room, req.pubId) && isPort(req.ports?.video) && isPort(req.ports?.audio)))
    throw new SfuError('invalid', 'bad record request');
  if ((req.t === 'stopRecord' || req.t === 'keyframe') && !isText(req.room)) throw new SfuError('invalid', `bad ${req.t} request`);
  switch (req.t) {
    case 'publish':
      return { t: 'reply', id: req.id, ok: true, sdp: await publish(sfu, { roomId: req.room, pubId: req.pubId, sdp: req.sdp }) };
    case 'subscribe':
      return {
        t: 'reply',
        id: req.id,
        ok: true,
        sdp: await subscribe(sfu, { roomId: req.room, peerId: req.peerId, sdp: req.sdp, audioOnly: req.audioOnly === true }),
      };
    case 'leave':
      leave(sfu, req.peerId);
      return { t: 'reply', id: req.id, ok: true };
    case 'endRoom':
      endRoom(sfu, req.room);
      return { t: 'reply', id: req.id, ok: true };
    case 'stats':
      return { t: 'reply', id: req.id, ok: true, stats: stats() };
    case 'record': {
      const r = sfu.rooms.get(req.room);
      if (!r?.publisher || r.publisher.id !== req.pubId) throw new SfuError('not_publishing', 'nobody publishes there');
      const { room, pubId } = req;
      openTap(r, { pubId, ports: req.ports, onStart: (at) => send({ t: 'recordStarted', room, pubId, at }) });
      // The copy starts at a keyframe: ask for one now rather than wait for the encoder's next.
      requestKeyframe(sfu.counters, r);
      return { t: 'reply', id: req.id, ok: true };
    }
    case 'stopRecord': {
      const r = sfu.rooms.get(req.room);
      if (r) closeTap(r);
      return { t: 'reply', id: req.id, ok: true };
    }
    case 'keyframe': {
      const r = sfu.rooms.get(req.room);
      if (r?.tap && r.publisher?.id === r.tap.pubId) requestKeyframe(sfu.counters, r);
      return { t: 'reply', id: req.id, ok: true };
    }
    default:
      throw new SfuError('invalid', 'unknown request');
  }
}

process.on('message', (raw: unknown) => {
  const req = raw as SfuRequest;
  if (!req || typeof req !== 'object' || typeof req.id !== 'number') return;
  handle(req).then(send, (err: unknown) => {
    // A refusal (SfuError) is the answer to a bad request; anything else is a bug, logged.
    if (!(err instanceof SfuError)) report(`${String(req.t)} failed`, err);
    const code = err instanceof SfuError ? err.code : 'failed';
    send({ t: 'reply', id: req.id, ok: false, error: code, message: err instanceof Error ? err.message : String(err) });
  });
});

// The server went away (or closed us): nothing is left to serve.
process.on('disconnect', () => {
  for (const r of sfu.rooms.values()) endRoom(sfu, r.id);
  process.exit(0);
});

send({ t: 'ready', pid: process.pid });
