/**
 * How the seller's encoder starts on each new connection (every Iniciar, reconnect, SFU restart and
 * takeover is one). Measured in the video suite with a 1280x720 camera, Chrome 156, REMB 1.5 Mb/s:
 * left alone, Chrome starts the estimate at 300 kb/s, and its initial frame dropping (nothing above
 * 640x480 under 500 kb/s) sends 640x360, then 960x540 after ~13 s, 1280x720 after ~25-30 s (longer
 * on a real camera and network). With a start bitrate of 1-2.5 Mb/s alone it still starts a step
 * down (960x540 for 6-13 s, a 'bandwidth' limitation in its stats). Holding the resolution while
 * the encoder starts, then handing the trade-off back to Chrome, sends 1280x720 from the first frame.
 */

/** Where the estimate starts (kb/s): above the 500 kb/s under which Chrome scales 720p down, below the SFUs' 1.5 Mb/s REMB. */
export const PUBLISH_START_KBPS = 1000;

/** How long after connecting the encoder keeps the camera's resolution whatever the quality scaler says. */
export const RESOLUTION_HOLD_MS = 10_000;

/** Payload formats that are not a picture codec: their fmtp lines are left alone. */
const NOT_A_CODEC = new Set(['rtx', 'red', 'ulpfec', 'flexfec-03']);

/**
 * The answer to a seller's offer with `x-google-start-bitrate` on every video codec: Chrome reads
 * it from the remote description when it configures the sender. Sections of other kinds pass
 * unchanged; a value already there is replaced.
 */
export function withStartBitrate(sdp: string, kbps: number = PUBLISH_START_KBPS): string {
  const eol = sdp.includes('\r\n') ? '\r\n' : '\n';
  const param = `x-google-start-bitrate=${Math.round(kbps)}`;
  const sections: string[][] = [[]];
  for (const line of sdp.split(eol)) {
    if (line.startsWith('m=')) sections.push([]);
    (sections[sections.length - 1] as string[]).push(line);
  }
  return sections
    .flatMap((section) => {
      if (!section[0]?.startsWith('m=video ')) return section;
      const codecs = new Set<string>();
      const withFmtp = new Set<string>();
      for (const line of section) {
        const rtpmap = /^a=rtpmap:(\d+) ([^/\s]+)\//.exec(line);
        if (rtpmap && !NOT_A_CODEC.has((rtpmap[2] as string).toLowerCase())) codecs.add(rtpmap[1] as string);
        const fmtp = /^a=fmtp:(\d+) /.exec(line);
        if (fmtp) withFmtp.add(fmtp[1] as string);
      }
      return section.flatMap((line) => {
        const rtpmap = /^a=rtpmap:(\d+) /.exec(line);
        // A codec without an fmtp line gets one right after its rtpmap.
        if (rtpmap && codecs.has(rtpmap[1] as string) && !withFmtp.has(rtpmap[1] as string)) return [line, `a=fmtp:${rtpmap[1]} ${param}`];
        const fmtp = /^a=fmtp:(\d+) (.*)$/.exec(line);
        if (!fmtp || !codecs.has(fmtp[1] as string)) return [line];
        const params = (fmtp[2] as string)
          .split(';')
          .map((p) => p.trim())
          .filter((p) => p && !p.startsWith('x-google-start-bitrate='));
        return [`a=fmtp:${fmtp[1]} ${[...params, param].join(';')}`];
      });
    })
    .join(eol);
}

type DegradationPreference = 'maintain-resolution' | undefined;

async function prefer(sender: RTCRtpSender, preference: DegradationPreference): Promise<void> {
  try {
    const params = sender.getParameters() as RTCRtpSendParameters & { degradationPreference?: string };
    if (preference) params.degradationPreference = preference;
    else delete params.degradationPreference;
    await sender.setParameters(params);
  } catch {
    // A connection closed meanwhile, or a browser without the setting: it keeps its own.
  }
}

/**
 * Keeps the camera's resolution (degradationPreference 'maintain-resolution') from now until
 * RESOLUTION_HOLD_MS after `pc` connects, then gives Chrome back its default, which trades
 * resolution for frame rate when the uplink or the CPU falls short. Call it once the answer is
 * applied; the returned function cancels what is still pending.
 */
export function holdResolutionWhileStarting(pc: RTCPeerConnection, holdMs: number = RESOLUTION_HOLD_MS): () => void {
  const senders = pc.getSenders().filter((sender) => sender.track?.kind === 'video');
  let timer: ReturnType<typeof setTimeout> | undefined;
  let done = false;
  const release = () => {
    done = true;
    clearTimeout(timer);
    pc.removeEventListener('connectionstatechange', onState);
  };
  const onState = () => {
    if (done || timer !== undefined || pc.connectionState !== 'connected') return;
    timer = setTimeout(() => {
      release();
      for (const sender of senders) void prefer(sender, undefined);
    }, holdMs);
  };
  for (const sender of senders) void prefer(sender, 'maintain-resolution');
  pc.addEventListener('connectionstatechange', onState);
  onState();
  return release;
}
