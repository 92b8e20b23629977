import { describe, expect, it } from 'vitest';
import { rfcProblem, ZCompanyInput } from '../../src/domain/companies.js';
import { canManageCompany } from '../../src/domain/role-rules.js';

describe('RFC (SAT)', () => {
  it.each([
    ['EKU9003173C9', 'persona moral (SAT test RFC)'],
    ['IIA040805DZ4', 'persona moral'],
    ['GODE561231GR8', 'persona física'],
    ['CACX7605101P8', 'persona física (SAT test RFC)'],
    ['XAXX010101000', 'público en general'],
  ])('accepts %s, %s', (rfc) => {
    expect(rfcProblem(rfc)).toBeNull();
  });

  it.each([
    ['EKU9003173C', 'rfcFormat'],
    ['EKU9003173C9X', 'rfcFormat'],
    ['EK19003173C9', 'rfcFormat'],
    ['EKU9013173C9', 'rfcFormat'],
    ['EKU9003003C9', 'rfcFormat'],
    ['EKU9003173C8', 'rfcCheckDigit'],
    ['GODE561231GR9', 'rfcCheckDigit'],
  ])('refuses %s (%s)', (rfc, problem) => {
    expect(rfcProblem(rfc)).toBe(problem);
  });

  it('reads an RFC written with lower case, spaces and dashes; an empty one is none', () => {
    expect(ZCompanyInput.parse({ name: ' A ', rfc: 'gode-561231 gr8' })).toEqual({ name: 'A', rfc: 'GODE561231GR8', legalName: null });
    expect(ZCompanyInput.parse({ name: 'A', rfc: '  ', legalName: '' })).toEqual({ name: 'A', rfc: null, legalName: null });
  });
});

describe('who manages a company', () => {
  const uid = 'u1';
  it.each([
    [['admin'], null, 'anything', true],
    [['admin'], 'acme', 'acme', true],
    [['admin'], 'acme', 'otra', false],
    [['seller'], 'acme', 'acme', false],
    [['seller'], null, uid, true],
    [['seller'], null, 'acme', false],
    [['buyer'], null, uid, false],
  ] as const)('roles %j, companyId %s, company %s → %s', (roles, profileCompanyId, companyId, expected) => {
    expect(canManageCompany({ id: uid, roles: [...roles], profileCompanyId }, companyId)).toBe(expected);
  });
});
