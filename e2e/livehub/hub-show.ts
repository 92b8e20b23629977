import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import type { LiveSessionDetail } from '../../src/domain/live.js';
import type { E2eApp } from '../support/app.js';
import { createAuctionAs } from '../support/auctions.js';

/**
 * The Live Hub specs' set-up through the API, as the seller's own page would call it (not a spec:
 * no `.spec`): a session with lots, a current lot, a timer.
 */
export function hubApi(page: Page, app: E2eApp) {
  const call = async <T>(method: 'post' | 'put' | 'get', path: string, data?: unknown, headers: Record<string, string> = {}): Promise<T> => {
    const res = await page.request[method](`${app.url}${path}`, { data, headers: { origin: app.url, ...headers } });
    expect(res.status(), await res.text()).toBeLessThan(300);
    return (await res.json()) as T;
  };
  return {
    post: <T>(path: string, data?: unknown, headers?: Record<string, string>) => call<T>('post', path, data ?? {}, headers),
    put: <T>(path: string, data: unknown) => call<T>('put', path, data),
    get: <T>(path: string) => call<T>('get', path),
    session: (id: string) => call<LiveSessionDetail>('get', `/api/live-sessions/${id}`),
  };
}

/** A session of `title` with one lot per name (pending auctions, as a seller prepares them). */
export async function buildShow(page: Page, app: E2eApp, opts: { title: string; lots: string[]; categoryId: string; startingPrice?: number }) {
  const api = hubApi(page, app);
  const created = await api.post<LiveSessionDetail>('/api/live-sessions', { title: opts.title, scheduledAt: Date.now() + 3_600_000 });
  const id = created.session.id;
  for (const name of opts.lots) {
    const auction = await createAuctionAs(page, app, { name, categoryId: opts.categoryId, startingPrice: opts.startingPrice ?? 400, status: 'pending' });
    await api.post(`/api/live-sessions/${id}/lots`, { auctionId: auction.id });
  }
  const detail = await api.session(id);
  const lotOf = (name: string) => {
    const lot = detail.lots.find((l) => l.auction.name === name);
    if (!lot) throw new Error(`no lot ${name}`);
    return lot;
  };
  return { id, detail, lotOf, api };
}
