import { afterEach, describe, expect, it, vi } from 'vitest';
import { fetchVideoGrant } from '../../../src/web/video/grant';

/** A tab's sessionStorage: what survives the page's reloads (this suite runs in Node, which has none). */
function tabStorage(opts: { refuses?: boolean } = {}) {
  const kept = new Map<string, string>();
  return {
    getItem: (key: string) => {
      if (opts.refuses) throw new DOMException('storage is disabled', 'SecurityError');
      return kept.get(key) ?? null;
    },
    setItem: (key: string, value: string) => {
      if (opts.refuses) throw new DOMException('storage is disabled', 'SecurityError');
      kept.set(key, value);
    },
  };
}

function askedUrls() {
  const urls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      urls.push(url);
      return new Response(JSON.stringify({ provider: 'janus', role: 'subscriber' }), { status: 200 });
    }),
  );
  return urls;
}

const viewerOf = (url: string | undefined) => new URL(url ?? '', 'http://localhost').searchParams.get('viewer');

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("a viewer's video grant", () => {
  it('names the same viewer in every ask of one tab, across its reloads, and another in a new tab', async () => {
    const urls = askedUrls();
    vi.stubGlobal('window', { sessionStorage: tabStorage() });
    await fetchVideoGrant('s1', 'subscriber');
    await fetchVideoGrant('s1', 'subscriber');
    const [first, second] = urls.map(viewerOf);
    expect(first).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(second).toBe(first);

    vi.stubGlobal('window', { sessionStorage: tabStorage() });
    await fetchVideoGrant('s1', 'subscriber');
    expect(viewerOf(urls[2])).not.toBe(first);
  });

  it('names no viewer for the seller, nor where the browser keeps no storage', async () => {
    const urls = askedUrls();
    vi.stubGlobal('window', { sessionStorage: tabStorage() });
    await fetchVideoGrant('s1', 'publisher');
    vi.stubGlobal('window', { sessionStorage: tabStorage({ refuses: true }) });
    await fetchVideoGrant('s1', 'subscriber');
    expect(urls).toEqual(['/api/live-sessions/s1/video?role=publisher', '/api/live-sessions/s1/video?role=subscriber']);
  });
});
