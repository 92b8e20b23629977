import { describe, expect, it } from 'vitest';
import { checkWhatsapp, dialCodeOptions, formatWhatsapp } from '../../src/domain/phone.js';

describe('dialCodeOptions', () => {
  const options = dialCodeOptions();

  it('offers +52 México first, then +1 USA/Canadá, then the rest by Spanish name', () => {
    expect(options[0]).toEqual({ dialCode: '+52', country: 'MX', label: 'México' });
    expect(options[1]).toEqual({ dialCode: '+1', country: 'US', label: 'USA/Canadá' });
    const rest = options.slice(2).map((o) => o.label);
    expect(rest).toEqual([...rest].sort((a, b) => a.localeCompare(b, 'es-MX')));
    expect(options.find((o) => o.dialCode === '+34')?.label).toBe('España');
  });

  it('lists each dial code once', () => {
    const codes = options.map((o) => o.dialCode);
    expect(new Set(codes).size).toBe(codes.length);
    expect(codes.length).toBeGreaterThan(150);
  });
});

describe('checkWhatsapp', () => {
  it.each([
    ['+52', '33 1234 5678', '+523312345678'],
    ['+52', '(55) 1234-5678', '+525512345678'],
    ['52', '8112345678', '+528112345678'],
    ['+1', '202-555-0123', '+12025550123'],
    ['+34', '612 345 678', '+34612345678'],
  ])('accepts %s %s as %s', (code, local, e164) => {
    expect(checkWhatsapp(code, local)).toMatchObject({ ok: true, e164 });
  });

  it.each([
    ['+52', '33 1234'],
    ['+52', '3312345678901'],
    ['+52', 'treinta'],
    ['+1', '555'],
    ['+999', '3312345678'],
  ])('rejects %s %s as an invalid number', (code, local) => {
    expect(checkWhatsapp(code, local)).toEqual({ ok: false, reason: 'invalidNumber' });
  });

  it('rejects a country code that is not a dial code', () => {
    expect(checkWhatsapp('MX', '3312345678')).toEqual({ ok: false, reason: 'unknownCode' });
  });

  it('rejects a number typed for another country', () => {
    // A US number written with its leading 1 is 11 digits: not a Mexican number.
    expect(checkWhatsapp('+52', '1 202 555 0123').ok).toBe(false);
  });
});

describe('formatWhatsapp', () => {
  it('groups a stored number the way people write it', () => {
    expect(formatWhatsapp('+525512345678')).toBe('+52 55 1234 5678');
    expect(formatWhatsapp('+523312345678')).toBe('+52 33 1234 5678');
    expect(formatWhatsapp('+14155552671')).toBe('+1 415 555 2671');
  });

  it('shows something unparseable as stored, and nothing as null', () => {
    expect(formatWhatsapp('12')).toBe('12');
    expect(formatWhatsapp(null)).toBeNull();
    expect(formatWhatsapp('')).toBeNull();
  });
});
