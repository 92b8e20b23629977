import { expect } from 'vitest';

/**
 * Polls for what a screen shows, through vitest's expect.poll: the assertion is retried until it
 * holds and fails when the budget runs out, so a change that never comes still fails the test.
 */

/** How long a screen may take to show a change: a refetch, a socket round trip, a render. */
export const SCREEN_WAIT = 15_000;
/** How long media may take: ICE, DTLS and the first keyframe, on two shared cores. */
export const MEDIA_WAIT = 20_000;

/** Polls `read` every 100 ms, for `timeout` (a screen's budget unless told). */
export const eventually = <T>(read: () => Promise<T> | T, timeout = SCREEN_WAIT) => expect.poll(read, { timeout, interval: 100 });

/** Polls a page's media state every 200 ms (each read asks the page for its stats), for `timeout` (media's budget unless told). */
export const eventuallyMedia = <T>(read: () => Promise<T> | T, timeout = MEDIA_WAIT) => expect.poll(read, { timeout, interval: 200 });
