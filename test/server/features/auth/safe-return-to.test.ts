import { describe, expect, it } from 'vitest';
import { safeReturnTo } from '../../../../src/server/features/auth/return-to.js';

describe('safeReturnTo', () => {
  it.each([
    ['/admin', '/admin'],
    ['/admin/livehub?session=1#lotes', '/admin/livehub?session=1#lotes'],
    ['/auctions/5f0c', '/auctions/5f0c'],
    ['/live/tienda/123', '/live/tienda/123'],
  ])('keeps a path on this site: %s', (input, expected) => {
    expect(safeReturnTo(input)).toBe(expected);
  });

  it.each([
    'https://evil.example',
    '//evil.example',
    '/\\evil.example',
    '\\\\evil.example',
    'javascript:alert(1)',
    '/admin\r\nLocation: https://evil.example',
    'admin',
    '',
    '/auth/logout',
    '/auth/google?returnTo=/admin',
  ])('falls back to /admin for %j', (input) => {
    expect(safeReturnTo(input)).toBe('/admin');
  });

  it('keeps percent-encoded line breaks encoded, so they cannot split the Location header', () => {
    expect(safeReturnTo('/%0d%0aSet-Cookie:x')).toBe('/%0d%0aSet-Cookie:x');
  });

  it('ignores values that are not strings', () => {
    expect(safeReturnTo(undefined)).toBe('/admin');
    expect(safeReturnTo(['/a', '/b'])).toBe('/admin');
    expect(safeReturnTo(`/${'a'.repeat(3000)}`)).toBe('/admin');
  });
});
