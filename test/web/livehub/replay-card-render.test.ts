import { MantineProvider } from '@mantine/core';
import { MutationObserver, QueryClientProvider } from '@tanstack/react-query';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LiveSessionPrivate } from '../../../src/domain/live';
import type { LiveSessionData } from '../../../src/web/api/live';
import { createQueryClient } from '../../../src/web/api/query-client';
import { replayViewingKeys } from '../../../src/web/api/replay-viewing';
import {
  NO_REPLAY,
  REPLAY_POLL_MS,
  type ReplayAnswer,
  replayDeleteOptions,
  replayKeys,
  replayRefetchInterval,
  replayRetryOptions,
  replayVisibilityOptions,
} from '../../../src/web/api/replays';
import { loadPanelStrings } from '../../../src/web/i18n';
import es from '../../../src/web/i18n/es-MX.json';
import { nextDeleteStep, replayLength, replayRevision, sendOnce } from '../../../src/web/livehub/after-show/replay-actions';
import { ReplayCard } from '../../../src/web/livehub/after-show/replay-card';
import { theme } from '../../../src/web/theme';
import { detail, SESSION_ID } from '../../support/live-hub-fixtures';

/**
 * The Hub's 'Repetición' card rendered by the real component in each of the replay's states
 * (server-side: no effects, no requests), and its actions through the mutations it uses with
 * fetch stubbed: one request per double click, and a delete that asks first.
 */

const r = es.livehub.replay;
const ENDED: Partial<LiveSessionPrivate> = { status: 'ended', broadcasting: false, recording: true };

function replay(over: Partial<ReplayAnswer> = {}): ReplayAnswer {
  return { ...NO_REPLAY, ...over };
}

const READY = replay({
  status: 'ready',
  progress: 100,
  url: `/api/live-sessions/${SESSION_ID}/replay/video`,
  posterUrl: `/api/live-sessions/${SESSION_ID}/replay/poster`,
  durationMs: 3_723_000,
  visibility: 'public',
  error: null,
  chapters: [
    { auctionId: 'a1', name: 'Reloj de bolsillo', imageUrl: null, startMs: 0, endMs: 60_000, result: 'sold', price: 1250 },
    { auctionId: 'a2', name: 'Collar', imageUrl: null, startMs: 60_000, endMs: 120_000, result: 'unsold', price: null },
  ],
});

function render(answer: ReplayAnswer | undefined, layout: 'panel' | 'phone' = 'panel'): string {
  const data: LiveSessionData = { ...detail({ session: ENDED }), receivedAt: Date.now() };
  const queryClient = createQueryClient();
  if (answer) queryClient.setQueryData([...replayKeys.detail(SESSION_ID), replayRevision(data.session)], answer);
  return renderToStaticMarkup(
    createElement(MantineProvider, { theme }, createElement(QueryClientProvider, { client: queryClient }, createElement(ReplayCard, { detail: data, layout }))),
  );
}

const textOf = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/&#x27;/g, "'");

beforeAll(async () => {
  await loadPanelStrings();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("the Hub's 'Repetición' card", () => {
  it('while recording, says so', () => {
    const html = render(replay({ status: 'recording' }));
    expect(html).toContain(r.title);
    expect(html).toContain(r.recording);
    expect(html).not.toContain('<video');
  });

  it('while it is made, shows its progress in words and as a bar', () => {
    const html = render(replay({ status: 'processing', progress: 40 }));
    expect(textOf(html)).toContain('Preparando la repetición… 40 %');
    expect(html).toMatch(/role="progressbar"[^>]*aria-valuenow="40"|aria-valuenow="40"[^>]*role="progressbar"/);
    expect(html).not.toContain(r.delete);
  });

  it('when ready, plays it with its poster, says its length and chapters, and offers hide and delete', () => {
    for (const layout of ['panel', 'phone'] as const) {
      const html = render(READY, layout);
      const video = html.match(/<video[^>]*>/)?.[0] ?? '';
      expect(video).toContain('controls');
      expect(video).toMatch(/\splaysinline/i);
      expect(video).toContain('preload="metadata"');
      expect(video).toContain(`poster="${READY.posterUrl}"`);
      expect(video).toContain(`src="${READY.url}"`);
      expect(textOf(html)).toContain('Duración: 1:02:03');
      expect(textOf(html)).toContain('2 capítulos');
      expect(html).toContain(r.hide);
      expect(html).not.toContain(r.publish);
      expect(html).toContain(r.delete);
      expect(html).not.toContain(r.hiddenNote);
      // The question is not open until 'Eliminar repetición' is pressed.
      expect(html).not.toContain(r.deleteText);
    }
  });

  it('when hidden, shows it as ready, labelled, with publish instead of hide', () => {
    const html = render({ ...READY, status: 'hidden', visibility: 'hidden', chapters: READY.chapters.slice(0, 1) });
    expect(html).toContain('<video');
    expect(html).toContain(r.hiddenNote);
    expect(html).toContain(r.publish);
    expect(html).not.toContain(r.hide);
    expect(textOf(html)).toContain('1 capítulo');
  });

  it('when it failed, says so with the reason and offers a retry', () => {
    const html = render(replay({ status: 'failed', progress: 30, error: 'ffmpeg terminó con el código 1', visibility: 'public' }));
    expect(html).toContain(r.failed);
    expect(html).toContain('ffmpeg terminó con el código 1');
    expect(html).toContain(r.retry);
    expect(html).not.toContain('<video');
  });

  it('without a recording, says the show was not recorded', () => {
    const html = render(replay());
    expect(html).toContain(r.none);
    expect(html).not.toContain(r.delete);
  });

  it('while its state loads, shows a status', () => {
    const html = render(undefined);
    expect(html).toContain(r.loading);
    expect(html).toContain('role="status"');
  });
});

describe("the card's actions", () => {
  const answer = (body: unknown, status = 200) => new Response(body === null ? null : JSON.stringify(body), { status });

  it('polls every 2 s only while the replay is recorded or made', () => {
    expect(replayRefetchInterval(replay({ status: 'recording' }))).toBe(REPLAY_POLL_MS);
    expect(replayRefetchInterval(replay({ status: 'processing' }))).toBe(2_000);
    for (const status of ['ready', 'hidden', 'failed', 'none'] as const) expect(replayRefetchInterval(replay({ status }))).toBe(false);
    expect(replayRefetchInterval(undefined)).toBe(false);
  });

  it("sends one retry for a double click on 'Reintentar', and shows it being made", async () => {
    const fetchMock = vi.fn(async () => answer(replay({ status: 'processing', progress: 0 }), 202));
    vi.stubGlobal('fetch', fetchMock);
    const queryClient = createQueryClient();
    const key = [...replayKeys.detail(SESSION_ID), 'ended:false:true'];
    queryClient.setQueryData(key, replay({ status: 'failed', error: 'x' }));
    const retry = new MutationObserver(queryClient, replayRetryOptions(queryClient, SESSION_ID));
    // Followed, as the card's useMutation follows it (an unfollowed observer calls no per-call callbacks).
    retry.subscribe(() => undefined);
    const lock = { isLocked: false };
    const click = () => sendOnce(lock, (done) => void retry.mutate(undefined, { onSettled: done }));
    expect(click()).toBe(true);
    expect(click()).toBe(false);
    await vi.waitFor(() => expect(queryClient.getQueryData<ReplayAnswer>(key)?.status).toBe('processing'));
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(fetchMock).toHaveBeenCalledWith(`/api/live-sessions/${SESSION_ID}/replay/retry`, expect.objectContaining({ method: 'POST' }));
    // Once answered, the button works again.
    await vi.waitFor(() => expect(lock.isLocked).toBe(false));
  });

  it('keeps a refusal as the mutation’s error with the server’s Spanish message, and unlocks', async () => {
    const refusal = { error: { code: 'CONFLICT', message: 'Solo se reintenta una repetición que falló.' } };
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => answer(refusal, 409)),
    );
    const queryClient = createQueryClient();
    const retry = new MutationObserver(queryClient, replayRetryOptions(queryClient, SESSION_ID));
    // Followed, as the card's useMutation follows it (an unfollowed observer calls no per-call callbacks).
    retry.subscribe(() => undefined);
    const lock = { isLocked: false };
    sendOnce(lock, (done) => void retry.mutate(undefined, { onSettled: done }).catch(() => undefined));
    await vi.waitFor(() => expect(retry.getCurrentResult().isError).toBe(true));
    expect(retry.getCurrentResult().error).toMatchObject({ status: 409, message: refusal.error.message });
    await vi.waitFor(() => expect(lock.isLocked).toBe(false));
  });

  it("asks before deleting: pressing 'Eliminar repetición' sends nothing, only the confirmation does", () => {
    expect(nextDeleteStep('idle', 'press')).toEqual({ step: 'asking', send: false });
    expect(nextDeleteStep('asking', 'cancel')).toEqual({ step: 'idle', send: false });
    expect(nextDeleteStep('asking', 'confirm')).toEqual({ step: 'idle', send: true });
    // A confirmation with no question open (a stale click) sends nothing.
    expect(nextDeleteStep('idle', 'confirm')).toEqual({ step: 'idle', send: false });
  });

  it('a delete leaves the show without a replay, a visibility change stores the answer', async () => {
    const fetchMock = vi.fn(async (_url: string, init?: RequestInit) =>
      init?.method === 'DELETE' ? answer(null, 204) : answer({ ...READY, status: 'hidden', visibility: 'hidden' }),
    );
    vi.stubGlobal('fetch', fetchMock);
    const queryClient = createQueryClient();
    const key = [...replayKeys.detail(SESSION_ID), 'ended:false:true'];
    queryClient.setQueryData(key, READY);
    await new MutationObserver(queryClient, replayVisibilityOptions(queryClient, SESSION_ID)).mutate('hidden');
    expect(fetchMock).toHaveBeenLastCalledWith(
      `/api/live-sessions/${SESSION_ID}/replay`,
      expect.objectContaining({ method: 'PUT', body: '{"visibility":"hidden"}' }),
    );
    expect(queryClient.getQueryData<ReplayAnswer>(key)?.status).toBe('hidden');
    await new MutationObserver(queryClient, replayDeleteOptions(queryClient, SESSION_ID)).mutate();
    expect(fetchMock).toHaveBeenLastCalledWith(`/api/live-sessions/${SESSION_ID}/replay`, expect.objectContaining({ method: 'DELETE' }));
    expect(queryClient.getQueryData<ReplayAnswer>(key)?.status).toBe('none');
  });

  it('has the show’s public page read its replay again after the seller changes it', async () => {
    vi.stubGlobal('fetch', async () => answer({ ...READY, status: 'hidden', visibility: 'hidden' }));
    const queryClient = createQueryClient();
    const publicKey = replayViewingKeys.replay(SESSION_ID);
    queryClient.setQueryData(publicKey, READY);
    expect(queryClient.getQueryState(publicKey)?.isInvalidated).toBe(false);
    await new MutationObserver(queryClient, replayVisibilityOptions(queryClient, SESSION_ID)).mutate('hidden');
    expect(queryClient.getQueryState(publicKey)?.isInvalidated).toBe(true);
  });

  it('writes the length as the player’s clock', () => {
    expect(replayLength(754_000)).toBe('12:34');
    expect(replayLength(3_723_000)).toBe('1:02:03');
    expect(replayLength(null)).toBeNull();
  });
});
