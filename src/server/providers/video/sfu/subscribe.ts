/**
 * A viewer subscribes: the SFU answers its offer with one sending peer connection, fed by the
 * room's forwarding path (forwarding.ts) once it is connected.
 */

import ndc, { type PeerConnection } from 'node-datachannel';
import { offerAsDtlsClient } from '../../../../domain/video.js';
import { closePc, gather, rtcConfig, SfuError, screened } from './connection.js';
import { guard } from './faults.js';
import { OUT, requestKeyframe, startVideo } from './forwarding.js';
import { endViewer, type Sfu, type Viewer } from './rooms.js';
import { asksForKeyframe, isRtcp, type OfferedSection, rewriteHostCandidates, viewerSections } from './sdp.js';

/** A viewer's sendonly tracks: VP8 and Opus in the mids and payload types its offer chose, with the room's SSRCs. */
function addViewerTracks(pc: PeerConnection, video: OfferedSection, audio: OfferedSection) {
  // Sendonly: a viewer can only receive; whatever media it might send is never read.
  const videoDesc = new ndc.Video(video.mid, 'SendOnly');
  videoDesc.addVideoCodec(video.pt, 'VP8');
  videoDesc.addSSRC(OUT.video.ssrc, 'martillo', 'martillo', 'video');
  const audioDesc = new ndc.Audio(audio.mid, 'SendOnly');
  audioDesc.addOpusCodec(audio.pt);
  audioDesc.addSSRC(OUT.audio.ssrc, 'martillo', 'martillo', 'audio');
  return { videoTrack: pc.addTrack(videoDesc), audioTrack: pc.addTrack(audioDesc), keep: [videoDesc, audioDesc] };
}

/**
 * A viewer's offer (recvonly video and audio, ICE gathered) answered: a sendonly VP8 and Opus
 * track in the viewer's own mids and payload types, with the room's SSRCs.
 *
 * The viewer offers, and the SFU answers as the DTLS server, because libdatachannel starts a
 * peer's DTLS only once that peer's own ICE is connected and drops what arrives before; a client
 * whose first flight is dropped resends it after 1 s (libdatachannel; Chrome after 50 ms). libjuice
 * reports an agent connected as soon as its own check is answered, and answers checks before it
 * knows the other side (RFC 8445). Holding the viewer's offer, the SFU checks the viewer first and
 * is connected, its DTLS server listening, within a loopback or LAN round trip, while its answer
 * still travels the socket; the viewer, the client, can only check (and then send its ClientHello)
 * once it has the answer. When the SFU offered
 * instead, the viewer's checks were answered first, and whichever side was the DTLS client, some
 * first flights were dropped: a 1 s tail in the first keyframe (bench/README.md). The offer's
 * `actpass` is read as `active` (offerAsDtlsClient) so that the SFU answers `passive`, which an
 * `actpass` offer allows.
 */
export async function subscribe(
  sfu: Sfu,
  { roomId, peerId, sdp, audioOnly = false }: { roomId: string; peerId: string; sdp: string; audioOnly?: boolean },
): Promise<string> {
  const offer = screened(sdp, sfu.candidates);
  const r = sfu.rooms.get(roomId);
  if (!r?.publisher) throw new SfuError('not_publishing');
  const wants = viewerSections(offer);
  if (!wants.video || !wants.audio) throw new SfuError('invalid', 'the offer does not receive VP8 video and Opus audio');
  const old = sfu.viewers.get(peerId);
  if (old) endViewer(sfu, old);
  const pc = new ndc.PeerConnection(`sub-${peerId.slice(0, 8)}`, rtcConfig(sfu.config));
  let added: ReturnType<typeof addViewerTracks>;
  try {
    added = addViewerTracks(pc, wants.video, wants.audio);
  } catch (err) {
    closePc(pc);
    throw new SfuError('invalid', `bad offer: ${String(err)}`);
  }
  const { videoTrack, audioTrack } = added;
  const v: Viewer = {
    id: peerId,
    room: roomId,
    pc,
    tracks: { video: videoTrack, audio: audioTrack },
    pt: { video: wants.video.pt, audio: wants.audio.pt },
    keep: added.keep,
    ready: false,
    started: false,
    waitingKeyframe: !audioOnly,
    audioOnly,
  };
  // Only RTCP comes back on a sendonly track; a PLI or FIR becomes a keyframe request to the publisher.
  videoTrack.onMessage(
    guard('viewer RTCP', (message) => {
      const packet = Buffer.isBuffer(message) ? message : Buffer.from(message);
      if (isRtcp(packet) && asksForKeyframe(packet) && !v.audioOnly) {
        sfu.counters.pliFromViewers++;
        v.waitingKeyframe = true;
        const current = sfu.rooms.get(roomId);
        if (current) requestKeyframe(sfu.counters, current);
      }
    }),
  );
  audioTrack.onMessage(() => {});
  // The track usually opens (DTLS-SRTP) just after the connection does; whichever comes last starts the video.
  videoTrack.onOpen(
    guard('viewer track open', () => {
      const current = sfu.rooms.get(roomId);
      if (current) startVideo(sfu.counters, current, v);
    }),
  );
  pc.onStateChange(
    guard('viewer state', (state) => {
      sfu.emit({ t: 'viewerState', room: roomId, peerId, state });
      if (state === 'connected') {
        v.ready = true;
        const current = sfu.rooms.get(roomId);
        if (current) startVideo(sfu.counters, current, v);
      }
      if ((state === 'failed' || state === 'closed') && sfu.viewers.get(peerId) === v) endViewer(sfu, v);
    }),
  );
  r.viewers.set(peerId, v);
  sfu.viewers.set(peerId, v);
  // The answer is made by libdatachannel on the offer, from the tracks above (their mids match).
  const gathering = gather(pc);
  try {
    pc.setRemoteDescription(offerAsDtlsClient(offer), 'offer');
  } catch (err) {
    gathering.cancel();
    endViewer(sfu, v);
    throw new SfuError('invalid', `bad offer: ${String(err)}`);
  }
  try {
    return rewriteHostCandidates(await gathering.sdp, sfu.config.publicIp);
  } catch (err) {
    endViewer(sfu, v);
    throw err;
  }
}
