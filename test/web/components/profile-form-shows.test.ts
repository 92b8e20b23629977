import { describe, expect, it } from 'vitest';
import { profileFormShows } from '../../../src/web/components/profile-form-shows';

/** 'Completa Tu Perfil' asks a buyer only what buying needs, and mentions Google only for a Google sign-in. */
describe('what the profile form asks and says', () => {
  it('asks a buyer no business name and speaks of purchases only', () => {
    expect(profileFormShows({ roles: ['buyer'], profile: { companyId: null } }, 'google')).toEqual({ businessName: false, googleHint: true, sells: false });
  });

  it('asks a seller or an admin without a company their business name', () => {
    expect(profileFormShows({ roles: ['seller'], profile: { companyId: null } }, 'google').businessName).toBe(true);
    expect(profileFormShows({ roles: ['buyer', 'admin'], profile: { companyId: null } }, 'google').businessName).toBe(true);
    // A company's member: the company's admins name it.
    expect(profileFormShows({ roles: ['seller'], profile: { companyId: 'tianguis' } }, 'google')).toEqual({
      businessName: false,
      googleHint: true,
      sells: true,
    });
  });

  it('says the name comes from Google only when the sign-in is Google’s', () => {
    expect(profileFormShows({ roles: ['buyer'], profile: { companyId: null } }, 'development').googleHint).toBe(false);
    // Not known yet (the config is on its way): no claim.
    expect(profileFormShows({ roles: ['buyer'], profile: { companyId: null } }, undefined).googleHint).toBe(false);
  });
});
