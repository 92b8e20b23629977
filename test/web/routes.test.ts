import { describe, expect, it } from 'vitest';
import { INVITATIONS_PATH, PURCHASES_PATH, payPath, screenForPath, storePath } from '../../src/web/routes';

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

  it('opens the public checkout of a payment link, with or without a trailing slash', () => {
    expect(screenForPath('/pay/8f14e45f-ceea-4e7a-9b0c-3f6a1e2d4c5b')).toEqual({ kind: 'pay', paymentId: '8f14e45f-ceea-4e7a-9b0c-3f6a1e2d4c5b' });
    expect(screenForPath('/pay/abc/')).toEqual({ kind: 'pay', paymentId: 'abc' });
    expect(payPath('a b')).toBe('/pay/a%20b');
    expect(screenForPath(payPath('a b'))).toEqual({ kind: 'pay', paymentId: 'a b' });
  });

  it('opens the invitations an invited person answers, at /invitaciones only', () => {
    expect(screenForPath(INVITATIONS_PATH)).toEqual({ kind: 'invitations' });
    expect(screenForPath('/invitaciones/')).toEqual({ kind: 'invitations' });
    expect(screenForPath('/invitaciones/otra')).toEqual({ kind: 'admin' });
    expect(screenForPath('/admin/invitaciones')).toEqual({ kind: 'admin' });
  });

  it("opens a buyer's purchases at /compras, and at /mis-compras as its link names it", () => {
    expect(PURCHASES_PATH).toBe('/compras');
    expect(screenForPath('/compras')).toEqual({ kind: 'purchases' });
    expect(screenForPath('/compras/')).toEqual({ kind: 'purchases' });
    expect(screenForPath('/mis-compras')).toEqual({ kind: 'purchases' });
    expect(screenForPath('/compras/otra')).toEqual({ kind: 'admin' });
    expect(screenForPath('/admin/compras')).toEqual({ kind: 'admin' });
  });

  it("opens the buyers' pages: the home, the search, a seller's page, alerts and the request to sell", () => {
    expect(screenForPath('/')).toEqual({ kind: 'home' });
    expect(screenForPath('/buscar')).toEqual({ kind: 'search' });
    expect(screenForPath('/tienda/vera-peso')).toEqual({ kind: 'store', slug: 'vera-peso' });
    expect(screenForPath('/tienda/vera%20peso')).toEqual({ kind: 'store', slug: 'vera peso' });
    expect(screenForPath('/tienda')).toEqual({ kind: 'admin' });
    expect(screenForPath('/tienda/a/b')).toEqual({ kind: 'admin' });
    expect(screenForPath('/alertas')).toEqual({ kind: 'alerts' });
    expect(screenForPath('/vender')).toEqual({ kind: 'sell' });
    expect(storePath('vera peso')).toBe('/tienda/vera%20peso');
  });

  it.each(['/admin', '/admin/', '/auctions', '/auctions/1/edit', '/live/a/b/c', '/pay', '/pay/1/extra', '/whatever'])(
    '%s falls back to the admin panel',
    (path) => {
      expect(screenForPath(path)).toEqual({ kind: 'admin' });
    },
  );
});
