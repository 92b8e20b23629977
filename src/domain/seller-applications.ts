import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { z } from 'zod';
import { rfcProblem } from './companies.js';
import { checkWhatsapp } from './phone.js';
import { APPLICATION_LIMITS, SELLER_APPLICATION_STATUSES } from './seller-application-rules.js';
import { zText } from './text.js';

export * from './seller-application-rules.js';

/**
 * *Quiero vender*: a buyer's request to sell on Martillo, which a platform admin approves (a company
 * is made with the applicant as its admin and seller) or declines with a reason. Issue codes are keys
 * of the server's `messages.sellerApplications.fields`, whose Spanish the form shows on its fields.
 */

/**
 * A WhatsApp number as one field: 10 digits are a Mexican number (+52); anything starting with `+`
 * carries its own country code. The same rules as the profile's (domain/phone.ts). Returns E.164.
 */
export function parseApplicantWhatsapp(value: string): string | null {
  const typed = value.trim();
  if (typed.startsWith('+')) {
    const parsed = parsePhoneNumberFromString(typed.replace(/[\s\-().]/g, ''));
    if (!parsed) return null;
    const check = checkWhatsapp(`+${parsed.countryCallingCode}`, String(parsed.nationalNumber));
    return check.ok ? check.e164 : null;
  }
  const check = checkWhatsapp('+52', typed);
  return check.ok ? check.e164 : null;
}

const text = (required: string, limits: { min: number; max: number }, short: string, long: string) =>
  zText({ error: required }).trim().min(1, { error: required }).min(limits.min, { error: short }).max(limits.max, { error: long });

/** POST /api/seller-applications. */
export const ZSellerApplicationInput = z.object({
  businessName: text('businessNameRequired', APPLICATION_LIMITS.businessName, 'businessNameTooShort', 'businessNameTooLong'),
  city: text('cityRequired', APPLICATION_LIMITS.city, 'cityTooShort', 'cityTooLong'),
  whatsapp: zText({ error: 'applicantWhatsappRequired' })
    .trim()
    .min(1, { error: 'applicantWhatsappRequired' })
    .max(30, { error: 'applicantWhatsappInvalid' })
    .transform((v, ctx) => {
      const e164 = parseApplicantWhatsapp(v);
      if (!e164) {
        ctx.addIssue({ code: 'custom', message: 'applicantWhatsappInvalid' });
        return z.NEVER;
      }
      return e164;
    }),
  description: text('sellDescriptionRequired', APPLICATION_LIMITS.description, 'sellDescriptionTooShort', 'sellDescriptionTooLong'),
  // As the companies' form takes it: 'eku-900317 3c9' is 'EKU9003173C9'.
  rfc: zText({ error: 'rfcFormat' })
    .max(20, { error: 'rfcFormat' })
    .transform((v) => v.toUpperCase().replace(/[\s-]/g, ''))
    .nullish()
    .transform((v) => (v ? v : null))
    .superRefine((v, ctx) => {
      const problem = v === null ? null : rfcProblem(v);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
});

/** POST /api/seller-applications/{id}/decline. */
export const ZDeclineInput = z.object({
  reason: text('reasonRequired', APPLICATION_LIMITS.reason, 'reasonTooShort', 'reasonTooLong'),
});

/** GET /api/seller-applications: platform admins may filter by status (all when absent). */
export const ZApplicationListQuery = z.object({
  status: z.enum(SELLER_APPLICATION_STATUSES).optional(),
});
