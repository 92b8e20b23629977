import dgram from 'node:dgram';
import { afterEach, describe, expect, it } from 'vitest';
import { recorderSdp } from '../../../../src/server/features/replays/recorder.js';
import { boundUdpPorts, pickRecorderPorts } from '../../../../src/server/features/replays/udp-ports.js';

/** The recorder's ports: four in a row that nobody holds, and the SDP that tells ffmpeg which. */

const open: dgram.Socket[] = [];
afterEach(() => {
  for (const s of open.splice(0)) s.close();
});

async function bind(port: number): Promise<number> {
  const s = dgram.createSocket('udp4');
  open.push(s);
  await new Promise<void>((resolve, reject) => {
    s.once('error', reject);
    s.bind(port, '127.0.0.1', () => resolve());
  });
  return s.address().port;
}

describe("a recorder's UDP ports", () => {
  it('reads the ports bound on this machine', async () => {
    const port = await bind(0);
    expect((await boundUdpPorts()).has(port)).toBe(true);
  });

  it('picks an even port whose next three are free, passing over four that are not', async () => {
    // The first draw lands on 20,000; its audio's RTCP port (20,003) is taken, so the second draw is used.
    await bind(20_003).catch(() => {});
    const draws = [0, 0.5];
    const ports = await pickRecorderPorts(() => draws.shift() ?? 0.5);
    expect(ports.video % 2).toBe(0);
    expect(ports.audio).toBe(ports.video + 2);
    expect(ports.video).not.toBe(20_000);
    const bound = await boundUdpPorts();
    for (let p = ports.video; p < ports.video + 4; p++) expect(bound.has(p)).toBe(false);
  });

  it('tells ffmpeg what the SFU sends: VP8 as 96 and Opus as 111, on the loopback', () => {
    const sdp = recorderSdp({ video: 24_000, audio: 24_002 });
    expect(sdp.split('\r\n')).toEqual(
      expect.arrayContaining([
        'c=IN IP4 127.0.0.1',
        'm=video 24000 RTP/AVP 96',
        'a=rtpmap:96 VP8/90000',
        'm=audio 24002 RTP/AVP 111',
        'a=rtpmap:111 opus/48000/2',
      ]),
    );
  });
});
