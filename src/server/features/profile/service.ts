import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { Me } from '../../../domain/api-types.js';
import { checkWhatsapp } from '../../../domain/phone.js';
import { isProfileComplete, type Profile, type ZProfileInput } from '../../../domain/profile.js';
import { canManageCompany, type Role } from '../../../domain/role-rules.js';
import { type AuditOrigin, recordAudit } from '../../audit.js';
import type { Db, Tx } from '../../db/connect.js';
import { companies, userProfiles, users } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import type { Acting } from '../../http/request-context.js';
import { messages } from '../../messages.js';
import { ensureCompany } from '../../reads/companies.js';
import type { CurrentUser } from '../../sessions/store.js';
import { renameCompany } from '../companies/index.js';

type ProfileRow = typeof userProfiles.$inferSelect;

export function presentProfile(row: ProfileRow): Profile {
  return {
    firstName: row.firstName,
    lastName: row.lastName,
    email: row.email,
    displayName: row.displayName,
    companyName: row.companyName,
    companyId: row.companyId,
    whatsapp: row.whatsapp,
    whatsappCountryCode: row.whatsappCountryCode,
    whatsappLocal: row.whatsappLocal,
    whatsappConsentGiven: row.whatsappConsentGiven,
  };
}

export async function getProfileRow(db: Db, userId: string): Promise<ProfileRow> {
  const [row] = await db.select().from(userProfiles).where(eq(userProfiles.userId, userId));
  if (!row) throw new AppError('NOT_FOUND', messages.errors.notFound);
  return row;
}

/** GET /api/me: the user, profile, roles and company in one read. */
export async function getMe(db: Db, user: CurrentUser): Promise<Me> {
  const [row] = await db
    .select({ profile: userProfiles, avatarUrl: users.avatarUrl })
    .from(userProfiles)
    .innerJoin(users, eq(users.id, userProfiles.userId))
    .where(eq(userProfiles.userId, user.id));
  if (!row) throw new AppError('NOT_FOUND', messages.errors.notFound);
  const profile = presentProfile(row.profile);
  const [company] = await db.select({ name: companies.name, recordShows: companies.recordShows }).from(companies).where(eq(companies.id, user.companyId));
  return {
    user: { id: user.id, email: user.email, displayName: profile.displayName, avatarUrl: row.avatarUrl },
    profile,
    roles: user.roles,
    companyId: user.companyId,
    // The company's record names it, not whichever member last edited a profile.
    companyName: company?.name ?? null,
    companyRecordsShows: company?.recordShows ?? true,
    profileComplete: isProfileComplete(profile),
  };
}

/** Saves what 'Completa Tu Perfil' sends; the route has already checked it against ZProfileInput. */
export async function updateProfile(db: Db, opts: Acting<{ id: string }> & { input: z.output<typeof ZProfileInput> }): Promise<Profile> {
  const { input } = opts;
  const userId = opts.actor.id;
  const phone = checkWhatsapp(input.whatsappCountryCode, input.whatsappLocal);
  if (!phone.ok) throw new AppError('VALIDATION', messages.errors.validation, { whatsappLocal: messages.fields.whatsappInvalid });
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(userProfiles).where(eq(userProfiles.userId, userId)).for('update');
    if (!before) throw new AppError('NOT_FOUND', messages.errors.notFound);
    const [row] = await tx
      .update(userProfiles)
      .set({
        lastName: input.lastName.trim(),
        companyName: input.companyName?.trim() || null,
        whatsapp: phone.e164,
        whatsappCountryCode: input.whatsappCountryCode.trim().replace(/^\+?/, '+'),
        whatsappLocal: phone.local,
        whatsappConsentGiven: true,
        whatsappConsentAt: before.whatsappConsentGiven ? before.whatsappConsentAt : new Date(),
        updatedAt: new Date(),
      })
      .where(eq(userProfiles.userId, userId))
      .returning();
    if (!row) throw new AppError('NOT_FOUND', messages.errors.notFound);
    if (row.companyName && row.companyName !== before.companyName) await nameOwnCompany(tx, row, opts);
    // Consent to be contacted is a legal record: keep when it was given.
    if (!before.whatsappConsentGiven) {
      await recordAudit(tx, {
        by: opts,
        action: 'profile.whatsapp_consent',
        entityType: 'user',
        entityId: userId,
        after: { whatsapp: row.whatsapp },
      });
    }
    return presentProfile(row);
  });
}

/**
 * A seller or admin who is its own company (no companyId) names that one-person company from
 * 'Mi perfil'; a member's business name never renames the company it belongs to.
 */
async function nameOwnCompany(tx: Tx, row: ProfileRow, by: AuditOrigin): Promise<void> {
  const owner = { id: row.userId, roles: row.roles as Role[], profileCompanyId: row.companyId };
  if (row.companyId !== null || !row.companyName || !canManageCompany(owner, row.userId)) return;
  await ensureCompany(tx, row.userId);
  await renameCompany(tx, { by, id: row.userId, set: { name: row.companyName } });
}
