import { describe, expect, it } from 'vitest';
import { parseViewState, writeViewState } from '../../../src/web/admin/auctions/view-state';
import { DEFAULT_WINDOW_STATE, parseWindowState, writeWindowState } from '../../../src/web/admin/panel-url';

const read = (query: string) => parseWindowState(new URLSearchParams(query));

describe('the panel URL: open window and its controls', () => {
  it('reads a window with its filters, and nothing without a known window', () => {
    expect(read('window=users&tab=users&role=buyer&q=%20ana%20&wpage=3')).toEqual({
      window: 'users',
      tab: 'users',
      role: 'buyer',
      status: 'all',
      search: 'ana',
      page: 3,
    });
    expect(read('')).toEqual(DEFAULT_WINDOW_STATE);
    expect(read('window=settings&role=buyer')).toEqual(DEFAULT_WINDOW_STATE);
  });

  it('falls back to defaults for malformed values', () => {
    expect(read('window=users&tab=x&role=owner&wpage=-2')).toEqual({ ...DEFAULT_WINDOW_STATE, window: 'users' });
    expect(read('window=payments&status=refunded&wpage=1.5')).toEqual({ ...DEFAULT_WINDOW_STATE, window: 'payments' });
    expect(read(`window=companies&q=${'a'.repeat(150)}`).search).toHaveLength(100);
  });

  it("writes only the open window's own controls, leaves defaults out and keeps the auction list's keys", () => {
    const base = new URLSearchParams('filter=pending&page=2');
    const users = writeWindowState(base, { ...DEFAULT_WINDOW_STATE, window: 'users', role: 'seller', search: 'ana', page: 2, status: 'paid' });
    expect(users.toString()).toBe('filter=pending&page=2&window=users&role=seller&q=ana&wpage=2');
    const payments = writeWindowState(users, { ...DEFAULT_WINDOW_STATE, window: 'payments', status: 'paid', page: 4 });
    expect(payments.toString()).toBe('filter=pending&page=2&window=payments&status=paid');
    const invitations = writeWindowState(users, { ...DEFAULT_WINDOW_STATE, window: 'users', tab: 'invitations', role: 'buyer' });
    expect(invitations.toString()).toBe('filter=pending&page=2&window=users&tab=invitations');
    expect(writeWindowState(payments, DEFAULT_WINDOW_STATE).toString()).toBe('filter=pending&page=2');
  });

  it('round-trips, and the auction list leaves the window keys alone', () => {
    const state = { ...DEFAULT_WINDOW_STATE, window: 'companies' as const, search: 'acme', page: 2 };
    const params = writeWindowState(new URLSearchParams(), state);
    expect(parseWindowState(params)).toEqual(state);
    const withList = writeViewState(params, { ...parseViewState(params), view: 'paid', search: 'reloj' });
    expect(parseWindowState(withList)).toEqual(state);
    expect(parseViewState(withList)).toMatchObject({ view: 'paid', search: 'reloj', page: 1 });
  });
});
