/**
 * The seller's video since its last keyframe (a "group of pictures"), kept by the embedded SFU so
 * that a viewer who connects gets a decodable picture at once instead of waiting for the
 * encoder's next keyframe. Pure bookkeeping, unit-tested without a peer connection.
 *
 * Bounded twice: a group older than `maxAgeMs` is not replayed (the burst of old frames would
 * cost a phone more than the keyframe request it saves, and would delay its picture), and a group
 * past `maxBytes` is dropped until the next keyframe.
 */
export interface GopLimits {
  maxAgeMs: number;
  maxBytes: number;
}

export const GOP_LIMITS: GopLimits = { maxAgeMs: 1000, maxBytes: 1024 * 1024 };

export class GopCache {
  private packets: Buffer[] = [];
  private bytes = 0;
  /** When the group's keyframe arrived; null while no complete group is held. */
  private startedAt: number | null = null;

  constructor(private readonly limits: GopLimits = GOP_LIMITS) {}

  /** One video packet as forwarded (already rewritten). The packet is copied. */
  push(packet: Buffer, keyframeStart: boolean, now: number): void {
    if (keyframeStart) {
      this.packets = [];
      this.bytes = 0;
      this.startedAt = now;
    } else if (this.startedAt === null) {
      return;
    }
    if (this.bytes + packet.length > this.limits.maxBytes) {
      this.clear();
      return;
    }
    this.packets.push(Buffer.from(packet));
    this.bytes += packet.length;
  }

  /** The packets to replay to a new viewer, in order, or null when the group is missing or too old. */
  replay(now: number): readonly Buffer[] | null {
    if (this.startedAt === null || now - this.startedAt > this.limits.maxAgeMs) return null;
    return this.packets;
  }

  clear(): void {
    this.packets = [];
    this.bytes = 0;
    this.startedAt = null;
  }
}
