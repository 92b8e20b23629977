import { describe, expect, it } from 'vitest';
import type { Profile } from '../../../src/domain/profile.js';
import {
  DEFAULT_DIAL_CODE,
  dialCodeSelectData,
  initialProfileValues,
  matchesDialCode,
  type ProfileFormValues,
  validateProfile,
  withCurrentDialCode,
} from '../../../src/web/lib/profile-form';

const valid: ProfileFormValues = {
  lastName: 'García López',
  companyName: '',
  whatsappCountryCode: '+52',
  whatsappLocal: '55 1234 5678',
  whatsappConsentGiven: true,
};

describe('validateProfile', () => {
  it('accepts a complete profile and sends trimmed values, an empty business name as null', () => {
    const result = validateProfile({ ...valid, lastName: '  García  ' });
    expect(result).toEqual({
      ok: true,
      input: {
        lastName: 'García',
        companyName: null,
        whatsappCountryCode: '+52',
        whatsappLocal: '55 1234 5678',
        whatsappConsentGiven: true,
      },
    });
  });

  it('reports each missing required field with its catalogue key', () => {
    const result = validateProfile({ ...valid, lastName: ' ', whatsappLocal: '', whatsappConsentGiven: false });
    expect(result).toEqual({
      ok: false,
      errors: { lastName: 'lastNameRequired', whatsappLocal: 'whatsappRequired', whatsappConsentGiven: 'consentRequired' },
    });
  });

  it('rejects a number that is not valid for the chosen country', () => {
    const result = validateProfile({ ...valid, whatsappLocal: '55 1234' });
    expect(result).toEqual({ ok: false, errors: { whatsappLocal: 'whatsappInvalid' } });
  });

  it('rejects an unknown country code on the code field', () => {
    const result = validateProfile({ ...valid, whatsappCountryCode: 'abc' });
    expect(result).toEqual({ ok: false, errors: { whatsappCountryCode: 'countryCodeInvalid' } });
  });

  it('flags an over-long business name', () => {
    const result = validateProfile({ ...valid, companyName: 'x'.repeat(121) });
    expect(result).toEqual({ ok: false, errors: { companyName: 'tooLong' } });
  });
});

describe('initialProfileValues', () => {
  it('defaults to +52 and an unchecked consent for a new profile', () => {
    expect(initialProfileValues(undefined)).toEqual({
      lastName: '',
      companyName: '',
      whatsappCountryCode: DEFAULT_DIAL_CODE,
      whatsappLocal: '',
      whatsappConsentGiven: false,
    });
  });

  it('keeps what the profile already has', () => {
    const profile: Profile = {
      firstName: 'Ana',
      lastName: 'García',
      email: 'ana@example.com',
      displayName: 'Ana García',
      companyName: 'Antigüedades Ana',
      companyId: 'c1',
      whatsapp: '+15551234567',
      whatsappCountryCode: '+1',
      whatsappLocal: '5551234567',
      whatsappConsentGiven: true,
    };
    expect(initialProfileValues(profile)).toEqual({
      lastName: 'García',
      companyName: 'Antigüedades Ana',
      whatsappCountryCode: '+1',
      whatsappLocal: '5551234567',
      whatsappConsentGiven: true,
    });
  });
});

describe('country code options', () => {
  const items = dialCodeSelectData();

  it('offers +52 México first and +1 USA/Canadá second, each code once', () => {
    expect(items[0]).toEqual({ value: '+52', label: '+52 México' });
    expect(items[1]).toEqual({ value: '+1', label: '+1 USA/Canadá' });
    expect(new Set(items.map((i) => i.value)).size).toBe(items.length);
  });

  it('finds a country ignoring accents, case and the plus sign', () => {
    expect(matchesDialCode('+52 México', 'mexico')).toBe(true);
    expect(matchesDialCode('+52 México', '+52')).toBe(true);
    expect(matchesDialCode('+34 España', 'espa')).toBe(true);
    expect(matchesDialCode('+34 España', 'mex')).toBe(false);
    expect(matchesDialCode('+34 España', '')).toBe(true);
  });

  it('keeps a stored code that the list lacks selectable', () => {
    expect(withCurrentDialCode(items, '+999')[0]).toEqual({ value: '+999', label: '+999' });
    expect(withCurrentDialCode(items, '+52')).toBe(items);
  });
});
