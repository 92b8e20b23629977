import { z } from 'zod';
import { MAX_PAYMENT_DEADLINE_HOURS, MAX_STRIKE_LIMIT, MIN_PAYMENT_DEADLINE_HOURS, MIN_STRIKE_LIMIT } from './after-show.js';
import { zText } from './text.js';

/** A company as GET /api/companies and PUT /api/companies/{id} answer it. */
export interface Company {
  id: string;
  name: string;
  rfc: string | null;
  legalName: string | null;
  /** Hours a buyer has to pay once a bill's link is made (a show may override it). */
  paymentDeadlineHours: number;
  /** Expired bills after which a buyer is blocked from the company's auctions and shows. */
  strikeLimit: number;
  /** 'Grabar los shows': a new show starts with 'Grabar el show' on (true) or off. */
  recordShows: boolean;
  createdAt: number;
  updatedAt: number;
}

export interface CompanyListResponse {
  items: Company[];
  total: number;
  page: number;
  pageSize: number;
}

export const ZCompanyListQuery = z.object({
  search: zText().trim().max(100).default(''),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(50),
});

const RFC_CHARS = '0123456789ABCDEFGHIJKLMN&OPQRSTUVWXYZ Ñ';
/** SAT's generic RFCs (público en general, extranjeros) do not carry a valid check digit. */
const GENERIC_RFCS = new Set(['XAXX010101000', 'XEXX010101000']);
const RFC_PATTERN = /^([A-ZÑ&]{3,4})(\d{2})(\d{2})(\d{2})([A-Z\d]{2}[A\d])$/;

/** SAT's check digit: the first 12 characters (a persona moral's padded with a space) weighted 13..2, modulo 11. */
function rfcCheckDigit(rfc13: string): string {
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += RFC_CHARS.indexOf(rfc13[i] as string) * (13 - i);
  const rest = 11 - (sum % 11);
  return rest === 11 ? '0' : rest === 10 ? 'A' : String(rest);
}

/** Why an RFC is refused ('rfcFormat' or 'rfcCheckDigit'), or null when it is valid. Expects upper case. */
export function rfcProblem(rfc: string): 'rfcFormat' | 'rfcCheckDigit' | null {
  if (GENERIC_RFCS.has(rfc)) return null;
  const match = RFC_PATTERN.exec(rfc);
  if (!match) return 'rfcFormat';
  const [, , , month, day] = match;
  if (Number(month) < 1 || Number(month) > 12 || Number(day) < 1 || Number(day) > 31) return 'rfcFormat';
  const padded = rfc.length === 12 ? ` ${rfc}` : rfc;
  return rfcCheckDigit(padded) === padded[12] ? null : 'rfcCheckDigit';
}

const optionalText = (max: number) =>
  zText({ error: 'invalid' })
    .trim()
    .max(max, { error: 'tooLong' })
    .nullish()
    .transform((v) => (v ? v : null));

/** PUT /api/companies/{id}. Codes are catalogue keys under `companies.errors` (and the server's `fields`). */
export const ZCompanyInput = z.object({
  name: zText({ error: 'companyNameRequired' }).trim().min(1, { error: 'companyNameRequired' }).max(120, { error: 'tooLong' }),
  rfc: zText({ error: 'rfcFormat' })
    // Written as people write it: 'eku-900317 3c9' is 'EKU9003173C9'.
    .transform((v) => v.toUpperCase().replace(/[\s-]/g, ''))
    .nullish()
    .transform((v) => (v ? v : null))
    .superRefine((v, ctx) => {
      const problem = v === null ? null : rfcProblem(v);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
  legalName: optionalText(250),
  // Absent keeps the stored value.
  paymentDeadlineHours: z
    .number({ error: 'paymentDeadlineInvalid' })
    .int({ error: 'paymentDeadlineInvalid' })
    .min(MIN_PAYMENT_DEADLINE_HOURS, { error: 'paymentDeadlineInvalid' })
    .max(MAX_PAYMENT_DEADLINE_HOURS, { error: 'paymentDeadlineInvalid' })
    .optional(),
  strikeLimit: z
    .number({ error: 'strikeLimitInvalid' })
    .int({ error: 'strikeLimitInvalid' })
    .min(MIN_STRIKE_LIMIT, { error: 'strikeLimitInvalid' })
    .max(MAX_STRIKE_LIMIT, { error: 'strikeLimitInvalid' })
    .optional(),
  recordShows: z.boolean({ error: 'recordShowsInvalid' }).optional(),
});
export type CompanyInput = z.input<typeof ZCompanyInput>;
