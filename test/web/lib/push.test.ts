import { describe, expect, it } from 'vitest';
import { base64UrlToBytes, type PushEnvironment, pushStateOf, shouldOfferPush } from '../../../src/web/lib/push';

const ANDROID_CHROME: PushEnvironment = {
  hasServiceWorker: true,
  hasPushManager: true,
  hasNotification: true,
  isIos: false,
  isStandalone: false,
  permission: 'default',
  hasSubscription: false,
};

describe('pushStateOf', () => {
  it('is off where push works and nobody has asked yet', () => {
    expect(pushStateOf(ANDROID_CHROME)).toBe('off');
  });

  it('is on only with permission and a subscription', () => {
    expect(pushStateOf({ ...ANDROID_CHROME, permission: 'granted', hasSubscription: true })).toBe('on');
    // Allowed, but this browser has no subscription (cleared, or the server's key changed): not on.
    expect(pushStateOf({ ...ANDROID_CHROME, permission: 'granted', hasSubscription: false })).toBe('off');
  });

  it('is blocked once the person said no', () => {
    expect(pushStateOf({ ...ANDROID_CHROME, permission: 'denied' })).toBe('blocked');
  });

  it("asks an iPhone's Safari to add the site to the home screen, not for permission", () => {
    // iOS Safari outside an installed app has no PushManager at all.
    const safari = { ...ANDROID_CHROME, isIos: true, hasPushManager: false, hasNotification: false, permission: null };
    expect(pushStateOf(safari)).toBe('needsInstall');
    expect(pushStateOf({ ...ANDROID_CHROME, isIos: true, isStandalone: true })).toBe('off');
    expect(pushStateOf({ ...ANDROID_CHROME, isIos: true, isStandalone: true, permission: 'granted', hasSubscription: true })).toBe('on');
  });

  it('is unsupported without a service worker, the Push API or notifications', () => {
    expect(pushStateOf({ ...ANDROID_CHROME, hasServiceWorker: false })).toBe('unsupported');
    expect(pushStateOf({ ...ANDROID_CHROME, hasPushManager: false })).toBe('unsupported');
    expect(pushStateOf({ ...ANDROID_CHROME, hasNotification: false, permission: null })).toBe('unsupported');
  });
});

describe('shouldOfferPush', () => {
  it('offers alerts after a tap only when turning them on can still work', () => {
    expect(shouldOfferPush('off')).toBe(true);
    expect(shouldOfferPush('needsInstall')).toBe(true);
    expect(shouldOfferPush('on')).toBe(false);
    expect(shouldOfferPush('blocked')).toBe(false);
    expect(shouldOfferPush('unsupported')).toBe(false);
  });
});

describe('base64UrlToBytes', () => {
  it('reads an unpadded base64url key', () => {
    expect([...base64UrlToBytes('AQID_-8')]).toEqual([1, 2, 3, 255, 239]);
    // A VAPID public key is an uncompressed P-256 point: 65 bytes starting with 4.
    const key = 'BEl62iUYgUivxIkv69yViEuiBIa-Ib9-SkvMeAtA3LFgDzkrxZJjSgSnfckjBJuBkr3qBUYIHBQFLXYp5Nksh8U';
    const bytes = base64UrlToBytes(key);
    expect(bytes.length).toBe(65);
    expect(bytes[0]).toBe(4);
  });
});
