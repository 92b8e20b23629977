import { describe, expect, it } from 'vitest';
import { screenForPath } from '../../src/web/routes';

describe('screenForPath (SPEC §2: the screen is chosen by path)', () => {
  it.each(['/admin/livehub', '/admin/livehub/', '/livehub', '/tienda/livehub/'])('%s opens the Live Hub', (path) => {
    expect(screenForPath(path)).toEqual({ kind: 'livehub' });
  });

  it('does not treat a path that merely contains livehub as the Live Hub', () => {
    expect(screenForPath('/admin/livehub/extra')).toEqual({ kind: 'admin' });
    expect(screenForPath('/admin/mylivehub-notes')).toEqual({ kind: 'admin' });
  });

  it('opens the public auction page with its id', () => {
    expect(screenForPath('/auctions/abc-123')).toEqual({ kind: 'auction', auctionId: 'abc-123' });
    expect(screenForPath('/auctions/abc-123/')).toEqual({ kind: 'auction', auctionId: 'abc-123' });
    expect(screenForPath('/auctions/a%20b')).toEqual({ kind: 'auction', auctionId: 'a b' });
  });

  it('opens the public live page with or without slug and session', () => {
    expect(screenForPath('/live')).toEqual({ kind: 'live', slug: null, sessionId: null });
    expect(screenForPath('/live/')).toEqual({ kind: 'live', slug: null, sessionId: null });
    expect(screenForPath('/live/s-1')).toEqual({ kind: 'live', slug: null, sessionId: 's-1' });
    expect(screenForPath('/live/tienda-ana/s-1')).toEqual({ kind: 'live', slug: 'tienda-ana', sessionId: 's-1' });
  });

  it.each(['/', '/admin', '/admin/', '/auctions', '/auctions/1/edit', '/live/a/b/c', '/whatever'])('%s falls back to the admin panel', (path) => {
    expect(screenForPath(path)).toEqual({ kind: 'admin' });
  });
});
