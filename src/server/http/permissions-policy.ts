import type { FastifyInstance } from 'fastify';
import { screenForPath } from '../../domain/screens.js';

/**
 * Browser features the product never uses, denied to every page (and so to any script that should
 * not be there): only features Chromium knows are named, as it warns in the console of each page
 * for one it does not. Fullscreen, autoplay, picture-in-picture, the clipboard and the wake lock keep
 * their defaults (this site only): the video and the Hub's copy buttons use them.
 */
const NEVER_USED = [
  'accelerometer',
  'browsing-topics',
  'display-capture',
  'geolocation',
  'gyroscope',
  'hid',
  'idle-detection',
  'magnetometer',
  'midi',
  'payment',
  'serial',
  'usb',
  'xr-spatial-tracking',
];

const policy = (mediaAllowlist: string) =>
  [`camera=${mediaAllowlist}`, `microphone=${mediaAllowlist}`, ...NEVER_USED.map((feature) => `${feature}=()`)].join(', ');

/** The Live Hub broadcasts: this site may use the camera and microphone there, and nowhere else. */
export const HUB_PERMISSIONS_POLICY = policy('(self)');
export const PAGE_PERMISSIONS_POLICY = policy('()');

/**
 * Permissions-Policy on every response, by the path a page was loaded from: a path ending in
 * /livehub (SPEC §2, screenForPath) opens the Hub. A document keeps the policy it was loaded with,
 * so the panel opens the Hub with a page load of its own (admin-header.tsx), never by its router.
 */
export function installPermissionsPolicy(app: FastifyInstance): void {
  app.addHook('onRequest', async (req, reply) => {
    const pathname = req.url.split('?')[0] ?? '/';
    reply.header('Permissions-Policy', screenForPath(pathname).kind === 'livehub' ? HUB_PERMISSIONS_POLICY : PAGE_PERMISSIONS_POLICY);
  });
}
