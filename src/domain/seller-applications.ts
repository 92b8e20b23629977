import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { z } from 'zod';
import { rfcProblem } from './companies.js';
import { checkWhatsapp } from './phone.js';
import { zText } from './text.js';

/**
 * *Quiero vender*: a buyer's request to sell on Martillo, which a platform admin approves (a company
 * is made with the applicant as its admin and seller) or declines with a reason. Issue codes are keys
 * of the server's `messages.sellerApplications.fields` and the web's `sell.errors`.
 */

export const SELLER_APPLICATION_STATUSES = ['pending', 'approved', 'declined'] as const;
export type SellerApplicationStatus = (typeof SELLER_APPLICATION_STATUSES)[number];

/** Days a declined applicant waits before applying again. */
export const REAPPLY_AFTER_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;

/** When someone declined at `decidedAt` (epoch ms) may apply again. */
export function reapplyAt(decidedAt: number): number {
  return decidedAt + REAPPLY_AFTER_DAYS * DAY_MS;
}

export const APPLICATION_LIMITS = {
  businessName: { min: 2, max: 120 },
  city: { min: 2, max: 80 },
  description: { min: 10, max: 1000 },
  reason: { min: 5, max: 500 },
} as const;

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
export type SellerApplicationInput = z.input<typeof ZSellerApplicationInput>;

/** POST /api/seller-applications/{id}/decline. */
export const ZDeclineInput = z.object({
  reason: text('reasonRequired', APPLICATION_LIMITS.reason, 'reasonTooShort', 'reasonTooLong'),
});

/** GET /api/seller-applications: platform admins may filter by status (all when absent). */
export const ZApplicationListQuery = z.object({
  status: z.enum(SELLER_APPLICATION_STATUSES).optional(),
});

/** One request as GET /api/seller-applications answers it (the applicant's own, or every one for a platform admin). */
export interface SellerApplication {
  id: string;
  userId: string;
  applicantName: string | null;
  applicantEmail: string;
  businessName: string;
  city: string;
  /** E.164, '+523312345678'. */
  whatsapp: string;
  description: string;
  rfc: string | null;
  status: SellerApplicationStatus;
  declineReason: string | null;
  decidedAt: number | null;
  /** For a declined request: when the applicant may apply again. */
  reapplyAt: number | null;
  /** The company approval made. */
  companyId: string | null;
  createdAt: number;
}

export interface SellerApplicationList {
  items: SellerApplication[];
  /** Requests waiting for a decision (a platform admin's nav badge); the applicant's own otherwise. */
  pending: number;
}
