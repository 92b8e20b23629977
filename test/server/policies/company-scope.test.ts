import { describe, expect, it } from 'vitest';
import { isInScope, recordScope, type ScopedActor, sessionScope } from '../../../src/server/policies/scope.js';

/** SPEC §6's table, once for auctions and payments and once for live sessions. */

const platformAdmin: ScopedActor = { id: 'u-admin', roles: ['admin'], profileCompanyId: null, companyId: 'u-admin' };
const companyAdmin: ScopedActor = { id: 'u-jefa', roles: ['admin'], profileCompanyId: 'norte', companyId: 'norte' };
const seller: ScopedActor = { id: 'u-vende', roles: ['seller'], profileCompanyId: 'norte', companyId: 'norte' };

const records = {
  ownByCompany: { companyId: 'norte', sellerId: 'u-otra' },
  ownBySeller: { companyId: 'sur', sellerId: 'u-vende' },
  companyNoSeller: { companyId: 'norte', sellerId: null },
  foreign: { companyId: 'sur', sellerId: 'u-otra' },
};
const seen = (scope: ReturnType<typeof recordScope>) =>
  Object.entries(records)
    .filter(([, r]) => isInScope(scope, r))
    .map(([name]) => name);

describe('SPEC §6 scope', () => {
  it('auctions and payments: admins all, a company admin by company or seller, a seller by seller only', () => {
    expect(seen(recordScope(platformAdmin))).toEqual(['ownByCompany', 'ownBySeller', 'companyNoSeller', 'foreign']);
    expect(seen(recordScope({ ...companyAdmin, id: 'u-vende' }))).toEqual(['ownByCompany', 'ownBySeller', 'companyNoSeller']);
    expect(seen(recordScope(companyAdmin))).toEqual(['ownByCompany', 'companyNoSeller']);
    expect(seen(recordScope(seller))).toEqual(['ownBySeller']);
  });

  it('live sessions: a seller also sees its company’s, merged with its own', () => {
    expect(seen(sessionScope(seller))).toEqual(['ownByCompany', 'ownBySeller', 'companyNoSeller']);
    expect(sessionScope(platformAdmin)).toEqual({ kind: 'all' });
    expect(sessionScope(companyAdmin)).toEqual(recordScope(companyAdmin));
  });
});
