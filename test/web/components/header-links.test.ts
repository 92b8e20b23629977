import { describe, expect, it } from 'vitest';
import type { Me } from '../../../src/domain/api-types';
import type { Role } from '../../../src/domain/role-rules';
import { headerLinks } from '../../../src/web/components/site-header/header-links';

const me = (roles: Role[]): Me =>
  ({
    user: { id: 'u1', email: 'ana@ejemplo.mx', displayName: 'Ana', avatarUrl: null },
    profile: { firstName: 'Ana', lastName: null, companyId: null },
    roles,
    companyId: 'u1',
    companyName: null,
    profileComplete: true,
  }) as unknown as Me;

describe("the header's links for a signed-in account", () => {
  it('offers a buyer Mis alertas, Mis compras and Quiero vender, and no Panel', () => {
    expect(headerLinks(me(['buyer']))).toEqual([
      { key: 'alerts', href: '/alertas' },
      { key: 'purchases', href: '/compras' },
      { key: 'sell', href: '/vender' },
    ]);
  });

  it('offers sellers and admins the Panel instead of Quiero vender', () => {
    for (const roles of [['seller'], ['admin'], ['buyer', 'seller']] as Role[][]) {
      const keys = headerLinks(me(roles)).map((link) => link.key);
      expect(keys, roles.join()).toEqual(['alerts', 'purchases', 'panel']);
      expect(headerLinks(me(roles)).find((link) => link.key === 'panel')?.href).toBe('/admin');
    }
  });
});
