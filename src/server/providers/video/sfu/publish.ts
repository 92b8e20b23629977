/**
 * A seller publishes: the SFU answers its offer with one receiving peer connection, whose media
 * goes down the forwarding path (forwarding.ts) to the room's viewers.
 */

import ndc from 'node-datachannel';
import { gather, isOpen, rtcConfig, SfuError, screened } from './connection.js';
import { guard } from './faults.js';
import { forward, requestKeyframe } from './forwarding.js';
import { GopCache } from './gop.js';
import { dropRoomIfEmpty, endPublisher, ensureRoom, type Kind, type Publisher, type Sfu } from './rooms.js';
import { payloadTypeOf, rewriteHostCandidates, trimPublisherAnswer } from './sdp.js';

/** The publisher's offer answered (ICE gathered); it replaces the room's publisher, if any. */
export async function publish(sfu: Sfu, { roomId, pubId, sdp }: { roomId: string; pubId: string; sdp: string }): Promise<string> {
  const offer = screened(sdp, sfu.candidates);
  const video = payloadTypeOf(offer, 'VP8/90000');
  const audio = payloadTypeOf(offer, 'opus/48000');
  if (video === null) throw new SfuError('invalid', 'the offer has no VP8 video');
  const r = ensureRoom(sfu, roomId);
  // A new publish replaces the old one (the seller reloaded): viewers stay in the room.
  if (r.publisher) endPublisher(r.publisher);
  // The new publisher's frames do not continue the old one's pictures: every viewer restarts at its keyframe.
  for (const v of r.viewers.values()) {
    v.started = false;
    v.waitingKeyframe = !v.audioOnly;
  }
  const pc = new ndc.PeerConnection(`pub-${pubId.slice(0, 8)}`, rtcConfig(sfu.config));
  const pub: Publisher = {
    id: pubId,
    pc,
    pt: { video, audio },
    tracks: {},
    keep: [],
    remb: null,
    lastKeyframeAt: 0,
    keyframeTimer: null,
    gop: new GopCache(),
  };
  r.publisher = pub;
  const unpublish = () => {
    if (r.publisher === pub) {
      r.publisher = null;
      dropRoomIfEmpty(sfu, r);
    }
    endPublisher(pub);
  };
  pc.onStateChange(
    guard('publisher state', (state) => {
      sfu.emit({ t: 'publisherState', room: roomId, pubId, state });
      if ((state === 'failed' || state === 'closed') && r.publisher === pub) unpublish();
    }),
  );
  pc.onTrack(
    guard('publisher track', (track) => {
      pub.keep.push(track);
      const kind: Kind = track.type() === 'audio' ? 'audio' : 'video';
      // Sends receiver reports, and the PLI (requestKeyframe) and REMB (requestBitrate) below.
      const session = new ndc.RtcpReceivingSession();
      track.setMediaHandler(session);
      pub.keep.push(session);
      pub.tracks[kind] = track;
      track.onMessage(
        guard('publisher media', (message) => {
          forward(sfu.counters, r, pub, kind, Buffer.isBuffer(message) ? message : Buffer.from(message));
        }),
      );
      if (kind === 'video') {
        track.onOpen(
          guard('publisher track open', () => {
            requestKeyframe(sfu.counters, r);
            pub.remb = setInterval(() => {
              if (r.publisher !== pub || !isOpen(pub.tracks.video)) return;
              try {
                pub.tracks.video.requestBitrate(sfu.config.rembBps);
              } catch {
                // closed in between
              }
            }, 1000);
          }),
        );
      }
    }),
  );
  const gathering = gather(pc);
  try {
    pc.setRemoteDescription(offer, 'offer');
  } catch (err) {
    gathering.cancel();
    unpublish();
    throw new SfuError('invalid', `bad offer: ${String(err)}`);
  }
  try {
    return rewriteHostCandidates(trimPublisherAnswer(await gathering.sdp, { video, audio }), sfu.config.publicIp);
  } catch (err) {
    unpublish();
    throw err;
  }
}
