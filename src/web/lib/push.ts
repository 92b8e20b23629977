import { useCallback, useEffect, useState } from 'react';
import { deleteSubscription, fetchPushPublicKey, saveSubscription } from '../api/push';

/**
 * Web Push in the browser: whether this phone can get alerts, and turning them on after a tap
 * (never on page load). The service worker is /sw.js (public/sw.js), scope '/'.
 *
 * - on: permission given and this browser has a subscription;
 * - off: it could, nobody has asked yet (or it was turned off);
 * - blocked: the person said no (only the browser's settings can undo it);
 * - needsInstall: an iPhone or iPad's Safari outside an installed web app, where iOS delivers no push;
 * - unsupported: no service worker, Push API or notifications here.
 */
export type PushState = 'on' | 'off' | 'blocked' | 'needsInstall' | 'unsupported';

export interface PushEnvironment {
  hasServiceWorker: boolean;
  hasPushManager: boolean;
  hasNotification: boolean;
  /** iPhone, iPod, or an iPad (which says it is a Mac with a touch screen). */
  isIos: boolean;
  /** Opened from the home screen as an app (display-mode standalone, or iOS's navigator.standalone). */
  isStandalone: boolean;
  permission: NotificationPermission | null;
  hasSubscription: boolean;
}

/** The state the page shows, from what the browser says. Pure. */
export function pushStateOf(env: PushEnvironment): PushState {
  if (env.isIos && !env.isStandalone) return 'needsInstall';
  if (!env.hasServiceWorker || !env.hasPushManager || !env.hasNotification) return 'unsupported';
  if (env.permission === 'denied') return 'blocked';
  if (env.permission === 'granted' && env.hasSubscription) return 'on';
  return 'off';
}

/** Whether a tap on *Seguir* or *Avísame* should offer alerts: only when turning them on can still work. */
export function shouldOfferPush(state: PushState): boolean {
  return state === 'off' || state === 'needsInstall';
}

/** The VAPID key as the Push API takes it: base64url to bytes. */
export function base64UrlToBytes(value: string): Uint8Array<ArrayBuffer> {
  const padded = value
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(value.length / 4) * 4, '=');
  const binary = atob(padded);
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function sameBytes(a: ArrayBuffer | null | undefined, b: Uint8Array): boolean {
  if (!a || a.byteLength !== b.byteLength) return false;
  const view = new Uint8Array(a);
  return view.every((byte, i) => byte === b[i]);
}

function isIosDevice(): boolean {
  const { userAgent, platform, maxTouchPoints } = navigator;
  return /iPhone|iPad|iPod/.test(userAgent) || (platform === 'MacIntel' && maxTouchPoints > 1);
}

function isStandaloneApp(): boolean {
  return window.matchMedia?.('(display-mode: standalone)').matches || (navigator as Navigator & { standalone?: boolean }).standalone === true;
}

async function currentSubscription(): Promise<PushSubscription | null> {
  if (!('serviceWorker' in navigator)) return null;
  const registration = await navigator.serviceWorker.getRegistration('/');
  return (await registration?.pushManager.getSubscription()) ?? null;
}

/** What this browser says now. */
export async function readPushState(): Promise<PushState> {
  if (typeof window === 'undefined') return 'unsupported';
  const hasServiceWorker = 'serviceWorker' in navigator;
  const hasPushManager = 'PushManager' in window;
  const hasNotification = 'Notification' in window;
  const permission = hasNotification ? Notification.permission : null;
  let hasSubscription = false;
  if (hasServiceWorker && hasPushManager && permission === 'granted') {
    try {
      hasSubscription = (await currentSubscription()) !== null;
    } catch {
      hasSubscription = false;
    }
  }
  return pushStateOf({ hasServiceWorker, hasPushManager, hasNotification, isIos: isIosDevice(), isStandalone: isStandaloneApp(), permission, hasSubscription });
}

/**
 * After the person's tap: ask for permission, register /sw.js, subscribe with the server's key and
 * hand the subscription to the server. Answers the new state ('blocked' when they said no, 'off'
 * when they closed the question); a failure on the way throws.
 */
export async function enablePush(): Promise<PushState> {
  const permission = await Notification.requestPermission();
  if (permission === 'denied') return 'blocked';
  if (permission !== 'granted') return 'off';
  await navigator.serviceWorker.register('/sw.js', { scope: '/' });
  const registration = await navigator.serviceWorker.ready;
  const { publicKey } = await fetchPushPublicKey();
  const key = base64UrlToBytes(publicKey);
  let subscription = await registration.pushManager.getSubscription();
  // A subscription made with another key (the server's keys changed) cannot be reused.
  if (subscription && !sameBytes(subscription.options.applicationServerKey, key)) {
    await subscription.unsubscribe();
    subscription = null;
  }
  subscription ??= await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
  await saveSubscription(subscription.toJSON());
  return 'on';
}

/** Stops alerts on this browser: the server forgets the subscription, then the browser drops it. */
export async function disablePush(): Promise<PushState> {
  const subscription = await currentSubscription();
  if (subscription) {
    await deleteSubscription(subscription.endpoint);
    await subscription.unsubscribe();
  }
  return 'off';
}

/** The push state for a component, with the taps that change it. */
export function usePush() {
  const [state, setState] = useState<PushState | null>(null);
  const [isWorking, setWorking] = useState(false);
  const [error, setError] = useState<unknown>(null);

  useEffect(() => {
    let isCurrent = true;
    void readPushState().then((read) => {
      if (isCurrent) setState(read);
    });
    return () => {
      isCurrent = false;
    };
  }, []);

  const run = useCallback(async (action: () => Promise<PushState>) => {
    setWorking(true);
    setError(null);
    try {
      const next = await action();
      setState(next);
      return next;
    } catch (caught) {
      setError(caught);
      setState(await readPushState());
      return null;
    } finally {
      setWorking(false);
    }
  }, []);

  const enable = useCallback(() => run(enablePush), [run]);
  const disable = useCallback(() => run(disablePush), [run]);
  return { state, isWorking, error, enable, disable };
}
