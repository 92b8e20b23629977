import { z } from 'zod';
import { zText } from './text.js';

/** How long an invitation waits for its answer: a week, like most team invitations. */
export const INVITATION_TTL_DAYS = 7;

/**
 * An e-mail as accounts store it: spaces around it dropped and lower case (users.email is lower-cased),
 * so 'Ana@Gmail.com ' and 'ana@gmail.com' are one person. Anything else about it is kept.
 */
export function normalizeEmail(value: string): string {
  return value.trim().toLowerCase();
}

/**
 * POST /api/invitations. `companyId` is for platform admins, who may invite into any company; a
 * company admin's invitations always go to its own company. Codes are `fields` catalogue keys.
 */
export const ZInvitationInput = z.object({
  email: zText({ error: 'emailRequired' })
    .transform(normalizeEmail)
    .pipe(
      z
        .string()
        .min(1, { error: 'emailRequired' })
        .max(254, { error: 'email' })
        .pipe(z.email({ error: 'email' })),
    ),
  companyId: zText({ error: 'invitationCompanyRequired' })
    .trim()
    .max(64, { error: 'invitationCompanyRequired' })
    .optional()
    .transform((v) => (v ? v : undefined)),
});
export type InvitationInput = z.output<typeof ZInvitationInput>;

/** GET /api/invitations: a platform admin may narrow the list to one company. */
export const ZInvitationListQuery = z.object({
  companyId: zText().trim().max(64).optional(),
});
