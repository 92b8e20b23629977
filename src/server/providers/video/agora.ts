import { randomBytes } from 'node:crypto';
import agoraToken from 'agora-token';
import { AGORA_TOKEN_SECONDS, type AgoraTokenAnswer, type VideoRole } from '../../../domain/video.js';
import type { VideoProvider, VideoProviderDeps } from './types.js';

// agora-token is CommonJS whose exports Node cannot name statically: take them from the default export.
const { RtcTokenBuilder, RtcRole } = agoraToken;

/**
 * What agora-rtc-sdk-ng 4.24.8 reaches from the browser (read from AgoraRTC_N-production.js):
 * - https on *.agora.io and *.sd-rtn.com: the access points that choose a gateway (WEBCS_DOMAIN,
 *   CDS_AP, UAP_AP, ACCOUNT_REGISTER), the event and stats collectors; the log service too, though
 *   log upload is off;
 * - https on the two SDP endpoints it tries first when joining (SDP_ENDPOINT_DOMAIN);
 * - wss to the media gateways, addressed as `<ip-with-dashes>.edge.agora.io:<port>` (or
 *   edge.sd-rtn.com), on ports the access point hands out, hence the port wildcard.
 * The media itself is WebRTC (ICE/DTLS/SRTP), which connect-src does not govern.
 */
export const AGORA_BROWSER_ORIGINS = [
  'https://*.agora.io',
  'https://*.sd-rtn.com',
  'https://sdp-ap-web-1.rtnsvc.com',
  'https://sdp-ap-web-1.rtesvc.com',
  'wss://*.edge.agora.io:*',
  'wss://*.edge.sd-rtn.com:*',
];

export interface AgoraKeys {
  appId: string;
  appCertificate: string;
}

/**
 * A token for `account` in the session's channel (the channel is the session id, SPEC §7). A
 * publisher's token carries the publish privileges; a subscriber's only joins. Token and
 * privileges end together, AGORA_TOKEN_SECONDS from now: the browser renews before that.
 */
export function buildAgoraToken(keys: AgoraKeys, opts: { channel: string; account: string; role: VideoRole; now?: number }): AgoraTokenAnswer {
  const role = opts.role === 'publisher' ? RtcRole.PUBLISHER : RtcRole.SUBSCRIBER;
  const now = opts.now ?? Date.now();
  const token = RtcTokenBuilder.buildTokenWithUserAccount(
    keys.appId,
    keys.appCertificate,
    opts.channel,
    opts.account,
    role,
    AGORA_TOKEN_SECONDS,
    AGORA_TOKEN_SECONDS,
  );
  // The builder answers '' instead of throwing when a key is not 32 hex characters; config checks them, so this is a bug.
  if (!token) throw new Error('agora-token built no token: check AGORA_APP_ID and AGORA_APP_CERTIFICATE');
  // The token counts from its own issue time, taken just after `now`: answering `now`-based keeps the browser early, never late.
  return { token, userAccount: opts.account, expiresAt: now + AGORA_TOKEN_SECONDS * 1000 };
}

/**
 * The account a browser joins with: a publisher is its user id (a second tab of the same seller
 * replaces the first); a viewer gets an account of its own every time, so a seller checking the
 * public page, or a buyer with two tabs, never knocks their other connection out of the channel
 * (Agora lets one account in a channel once). Signed-in viewers keep their id in it for Agora's
 * analytics; anonymous ones are opaque.
 */
export function agoraAccount(role: VideoRole, userId: string | null): string {
  if (role === 'publisher') {
    if (!userId) throw new Error('a publisher account needs a user');
    return userId;
  }
  const nonce = randomBytes(9).toString('base64url');
  return userId ? `w-${userId}-${nonce}` : `anon-${nonce}`;
}

/**
 * SPEC §7's cloud: Agora carries the media, this server only signs tokens (agora-routes.ts serves
 * them). With VIDEO_PROVIDER=agora but no keys the provider exists and says it is disabled, so the
 * Hub shows 'disabled' rather than the server refusing to start.
 */
export async function createAgoraVideo(deps: VideoProviderDeps): Promise<VideoProvider> {
  const keys = deps.config.video.agora;
  if (!keys) deps.log.warn({}, 'VIDEO_PROVIDER=agora without AGORA_APP_ID and AGORA_APP_CERTIFICATE: broadcasting is disabled');
  return {
    name: 'agora',
    cspConnectSrc: keys ? [...AGORA_BROWSER_ORIGINS] : [],
    // Only the channel: the browser then asks /api/agora-config and /api/agora-token (SPEC §7).
    grant: async (sessionId, role) => ({ provider: 'agora', role, channel: sessionId }),
    // Agora's channels exist while someone is in them; there is nothing to tear down here.
    endSession: async () => {},
    // Who is in a channel is the cloud's to know: a broadcast here stops from the seller's page only.
    hasPublisher: async () => null,
    close: async () => {},
  };
}
