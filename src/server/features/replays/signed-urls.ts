import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * A clip's address is signed and expires: the winner's page (or the seller's bill) asks for it with
 * the caller's session, and the address it gets opens the video for a while without one (a video
 * element's requests, a share to the buyer's own phone). Anyone else who finds the address later
 * finds it expired; anyone who changes it (another auction, a later expiry) finds it refused.
 *
 * The key is derived from SESSION_SECRET for this one use, so a signature made here is worth nothing
 * anywhere else, and every instance of the server (same secret) accepts the others' addresses.
 */

/** How long a clip's address stays good: long enough to watch and seek a two-minute clip, and come back to it. */
export const CLIP_URL_TTL_MS = 60 * 60 * 1000;

export interface ClipSigner {
  /** The clip's path with its expiry (epoch seconds) and signature. */
  sign(auctionId: string, now?: number): { url: string; expiresAt: number };
  /** Whether `expires` and `signature` were made here for this auction and have not run out. */
  verify(auctionId: string, expires: string | undefined, signature: string | undefined, now?: number): 'ok' | 'expired' | 'forged';
}

export const clipPath = (auctionId: string) => `/api/auctions/${auctionId}/clip/video`;

export function createClipSigner(sessionSecret: string, ttlMs = CLIP_URL_TTL_MS): ClipSigner {
  const key = createHmac('sha256', sessionSecret).update('martillo:clip-urls').digest();
  const mac = (auctionId: string, expires: number) => createHmac('sha256', key).update(`${auctionId}.${expires}`).digest('base64url');
  return {
    sign(auctionId, now = Date.now()) {
      const expires = Math.floor((now + ttlMs) / 1000);
      return { url: `${clipPath(auctionId)}?expires=${expires}&signature=${mac(auctionId, expires)}`, expiresAt: expires * 1000 };
    },
    verify(auctionId, expires, signature, now = Date.now()) {
      if (!expires || !signature || !/^\d{1,12}$/.test(expires) || !/^[A-Za-z0-9_-]{43}$/.test(signature)) return 'forged';
      const expected = Buffer.from(mac(auctionId, Number(expires)));
      const given = Buffer.from(signature);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'forged';
      return Number(expires) * 1000 <= now ? 'expired' : 'ok';
    },
  };
}
