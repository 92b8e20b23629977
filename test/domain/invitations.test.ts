import { describe, expect, it } from 'vitest';
import { invitationAcceptance } from '../../src/domain/invitation-rules.js';

describe('invitationAcceptance: what accepting a seller invitation into empresa-a would do', () => {
  it.each([
    ['a buyer with no company joins', { roles: ['buyer'], profileCompanyId: null }, 'join'],
    ['an account with no role at all joins', { roles: [], profileCompanyId: null }, 'join'],
    ['a member of the company only gains the role', { roles: ['buyer'], profileCompanyId: 'empresa-a' }, 'member'],
    ['its own admin is a member too', { roles: ['admin'], profileCompanyId: 'empresa-a' }, 'member'],
    ["another company's seller moves", { roles: ['seller'], profileCompanyId: 'empresa-b' }, 'move'],
    ["another company's buyer moves", { roles: ['buyer'], profileCompanyId: 'empresa-b' }, 'move'],
    ['a seller who is a company of its own moves', { roles: ['buyer', 'seller'], profileCompanyId: null }, 'move'],
    ['a platform admin must give up the role first', { roles: ['admin'], profileCompanyId: null }, 'adminBlocked'],
    ["another company's admin must give up the role first", { roles: ['admin', 'seller'], profileCompanyId: 'empresa-b' }, 'adminBlocked'],
  ] as const)('%s', (_case, account, expected) => {
    expect(invitationAcceptance(account, 'empresa-a')).toBe(expected);
  });
});
