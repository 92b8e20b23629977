import { readFile } from 'node:fs/promises';

/**
 * Loopback UDP ports for a recorder (recorder.ts). ffmpeg takes each stream on the port its SDP
 * names and that port's odd neighbour (RTCP), so a recording needs four ports in a row from an
 * even one: video, its RTCP, audio, its RTCP. Nothing in Node can reserve them for another
 * process, so the recorder picks four that nobody holds and retries if ffmpeg finds one taken.
 */

/** Below Linux's ephemeral range (32768–60999), where the kernel hands out ports on its own, and above the usual services. */
const FIRST = 20_000;
const LAST = 32_000;

/** Ports bound by any UDP socket on this machine now, read from /proc/net/udp and udp6 (Linux); an empty set elsewhere. */
export async function boundUdpPorts(): Promise<Set<number>> {
  const ports = new Set<number>();
  for (const file of ['/proc/net/udp', '/proc/net/udp6']) {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      // "  sl  local_address rem_address ...": local_address is ADDRESS:PORT, the port in hex.
      const local = line.trim().split(/\s+/)[1];
      const port = local ? Number.parseInt(local.slice(local.lastIndexOf(':') + 1), 16) : Number.NaN;
      if (Number.isInteger(port)) ports.add(port);
    }
  }
  return ports;
}

/** An even port whose next three are free too: video on it, audio two above. */
export async function pickRecorderPorts(random: () => number = Math.random): Promise<{ video: number; audio: number }> {
  const bound = await boundUdpPorts();
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = FIRST + 2 * Math.floor((random() * (LAST - FIRST)) / 2);
    if ([0, 1, 2, 3].every((i) => !bound.has(base + i))) return { video: base, audio: base + 2 };
  }
  throw new Error('no four free UDP ports in a row for a recorder');
}
