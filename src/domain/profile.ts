import { z } from 'zod';
import { checkWhatsapp } from './phone.js';
import { zText } from './text.js';

/**
 * What 'Completa Tu Perfil' sends (SPEC §2, §5). Issue codes are catalogue keys under
 * `profile.errors`, so the browser and the server explain a bad field in the same words.
 */
export const ZProfileInput = z
  .object({
    lastName: zText({ error: 'lastNameRequired' }).trim().min(1, { error: 'lastNameRequired' }).max(80, { error: 'tooLong' }),
    companyName: zText()
      .trim()
      .max(120, { error: 'tooLong' })
      .nullish()
      .transform((v) => (v ? v : null)),
    whatsappCountryCode: zText({ error: 'countryCodeRequired' }).trim().min(1, { error: 'countryCodeRequired' }),
    whatsappLocal: zText({ error: 'whatsappRequired' }).trim().min(1, { error: 'whatsappRequired' }),
    whatsappConsentGiven: z.literal(true, { error: 'consentRequired' }),
  })
  .superRefine(
    (value, ctx) => {
      if (typeof value.whatsappLocal !== 'string' || typeof value.whatsappCountryCode !== 'string') return;
      if (!value.whatsappLocal.trim() || !value.whatsappCountryCode.trim()) return;
      const check = checkWhatsapp(value.whatsappCountryCode, value.whatsappLocal);
      if (!check.ok) {
        const field = check.reason === 'unknownCode' ? 'whatsappCountryCode' : 'whatsappLocal';
        ctx.addIssue({
          code: 'custom',
          path: [field],
          message: check.reason === 'unknownCode' ? 'countryCodeInvalid' : 'whatsappInvalid',
        });
      }
    },
    // Check the number even when another field failed, so every error shows at once.
    {
      when: (payload) => typeof payload.value === 'object' && payload.value !== null,
    },
  );
export type ProfileInput = z.input<typeof ZProfileInput>;

export interface Profile {
  firstName: string | null;
  lastName: string | null;
  email: string;
  displayName: string | null;
  companyName: string | null;
  companyId: string | null;
  whatsapp: string | null;
  whatsappCountryCode: string | null;
  whatsappLocal: string | null;
  whatsappConsentGiven: boolean;
}

/** SPEC §2: the profile modal opens by itself while one of these is missing. */
export function isProfileComplete(p: Pick<Profile, 'lastName' | 'whatsapp' | 'whatsappConsentGiven'>): boolean {
  return Boolean(p.lastName?.trim()) && Boolean(p.whatsapp) && p.whatsappConsentGiven;
}
