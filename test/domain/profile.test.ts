import { describe, expect, it } from 'vitest';
import { isProfileComplete, ZProfileInput } from '../../src/domain/profile.js';

const valid = { lastName: 'Gómez', companyName: '', whatsappCountryCode: '+52', whatsappLocal: '3312345678', whatsappConsentGiven: true };

describe('ZProfileInput', () => {
  it('accepts a complete profile and turns an empty business name into null', () => {
    const r = ZProfileInput.safeParse(valid);
    expect(r.success && r.data.companyName).toBeNull();
  });

  it('gives catalogue keys as messages, one per bad field', () => {
    const r = ZProfileInput.safeParse({ lastName: ' ', whatsappCountryCode: '+52', whatsappLocal: '12', whatsappConsentGiven: false });
    expect(r.success).toBe(false);
    const byField = Object.fromEntries((r.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));
    expect(byField).toEqual({ lastName: 'lastNameRequired', whatsappConsentGiven: 'consentRequired', whatsappLocal: 'whatsappInvalid' });
  });

  it('asks for each missing field', () => {
    const r = ZProfileInput.safeParse({});
    const keys = new Set((r.error?.issues ?? []).map((i) => i.message));
    expect(keys).toEqual(new Set(['lastNameRequired', 'countryCodeRequired', 'whatsappRequired', 'consentRequired']));
  });
});

describe('isProfileComplete', () => {
  it('needs a last name, a WhatsApp number and consent', () => {
    expect(isProfileComplete({ lastName: 'Gómez', whatsapp: '+523312345678', whatsappConsentGiven: true })).toBe(true);
    expect(isProfileComplete({ lastName: ' ', whatsapp: '+523312345678', whatsappConsentGiven: true })).toBe(false);
    expect(isProfileComplete({ lastName: 'Gómez', whatsapp: null, whatsappConsentGiven: true })).toBe(false);
    expect(isProfileComplete({ lastName: 'Gómez', whatsapp: '+523312345678', whatsappConsentGiven: false })).toBe(false);
  });
});
