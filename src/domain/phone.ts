import { type CountryCode, getCountries, getCountryCallingCode, parsePhoneNumberFromString } from 'libphonenumber-js';

export interface DialCodeOption {
  /** The dial code with its plus sign, as stored in whatsappCountryCode: '+52'. */
  dialCode: string;
  /** The country used to check numbers typed for this option. */
  country: CountryCode;
  /** Spanish label without the code: 'México', 'USA/Canadá'. */
  label: string;
}

/** The profile offers +52 México first, then +1 USA/Canadá, then every other code by name. */
export function dialCodeOptions(locale = 'es-MX'): DialCodeOption[] {
  const names = new Intl.DisplayNames([locale], { type: 'region' });
  const first: DialCodeOption[] = [
    { dialCode: '+52', country: 'MX', label: 'México' },
    { dialCode: '+1', country: 'US', label: 'USA/Canadá' },
  ];
  const taken = new Set(first.map((o) => o.dialCode));
  const rest: DialCodeOption[] = [];
  for (const country of getCountries()) {
    const dialCode = `+${getCountryCallingCode(country)}`;
    if (taken.has(dialCode)) continue;
    taken.add(dialCode);
    rest.push({ dialCode, country, label: names.of(country) ?? country });
  }
  rest.sort((a, b) => a.label.localeCompare(b.label, locale));
  return [...first, ...rest];
}

export type WhatsappCheck = { ok: true; e164: string; local: string } | { ok: false; reason: 'unknownCode' | 'invalidNumber' };

/**
 * Checks a local number against its dial code. Spaces, dashes and brackets are ignored;
 * a Mexican number is 10 digits (the old 1 and 044 mobile prefixes ended in 2019 and are refused).
 */
export function checkWhatsapp(dialCode: string, localNumber: string): WhatsappCheck {
  const code = dialCode.trim().replace(/^\+?/, '+');
  if (!/^\+\d{1,4}$/.test(code)) return { ok: false, reason: 'unknownCode' };
  const digits = localNumber.replace(/[\s\-().]/g, '');
  if (!/^\d{4,15}$/.test(digits)) return { ok: false, reason: 'invalidNumber' };
  const parsed = parsePhoneNumberFromString(`${code}${digits}`);
  if (!parsed || `+${parsed.countryCallingCode}` !== code || !parsed.isValid()) {
    return { ok: false, reason: 'invalidNumber' };
  }
  return { ok: true, e164: parsed.number, local: String(parsed.nationalNumber) };
}

/**
 * A stored WhatsApp number (E.164, '+525512345678') as people write it: '+52 55 1234 5678'.
 * Something that does not parse is shown as stored rather than hidden.
 */
export function formatWhatsapp(whatsapp: string | null | undefined): string | null {
  if (!whatsapp) return null;
  return parsePhoneNumberFromString(whatsapp)?.formatInternational() ?? whatsapp;
}
