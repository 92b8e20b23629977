import { inArray } from 'drizzle-orm';
import { checkWhatsapp } from '../../src/domain/phone.js';
import { foldText } from '../../src/domain/text.js';
import type { Db } from '../../src/server/db/connect.js';
import { categories, companies, userProfiles, users } from '../../src/server/db/schema.js';
import { CATALOG } from './catalog.js';
import { COMPANIES, type DemoPerson, displayName, PEOPLE } from './people.js';

const DAY = 86_400_000;

export interface SeededPerson extends DemoPerson {
  id: string;
  displayName: string;
  whatsapp: string;
}

/** The categories, by catalogue key. An existing category of the same name is reused. */
export async function insertCategories(db: Db): Promise<Map<string, string>> {
  const rows = CATALOG.map((c) => ({ name: c.name, nameKey: foldText(c.name) }));
  await db.insert(categories).values(rows).onConflictDoNothing();
  const found = await db
    .select({ id: categories.id, nameKey: categories.nameKey })
    .from(categories)
    .where(
      inArray(
        categories.nameKey,
        rows.map((r) => r.nameKey),
      ),
    );
  const byNameKey = new Map(found.map((f) => [f.nameKey, f.id]));
  return new Map(CATALOG.map((c) => [c.key, byNameKey.get(foldText(c.name)) as string]));
}

/**
 * Users and complete profiles, written the way sign-in and 'Completa Tu Perfil' leave them:
 * lower-case email, roles, WhatsApp in E.164 with its +52 code and local part, consent given.
 */
export async function insertPeople(db: Db, now: number): Promise<Map<string, SeededPerson>> {
  const seeded = new Map<string, SeededPerson>();
  await db.transaction(async (tx) => {
    // The company records name the companies (a member's profile does not).
    await tx.insert(companies).values(COMPANIES.map((c) => ({ id: c.companyId, name: c.companyName, rfc: c.rfc, legalName: c.legalName })));
    for (const [i, person] of PEOPLE.entries()) {
      const phone = checkWhatsapp('+52', person.whatsappLocal);
      if (!phone.ok) throw new Error(`demo WhatsApp number of ${person.email} is not valid`);
      // Staff joined about two months ago, buyers over the following weeks.
      const createdAt = new Date(now - (60 - i * 3) * DAY);
      const email = person.email.toLowerCase();
      const [user] = await tx.insert(users).values({ email, emailVerified: false, createdAt }).returning({ id: users.id });
      if (!user) throw new Error('user insert returned nothing');
      const name = displayName(person);
      await tx.insert(userProfiles).values({
        userId: user.id,
        email,
        firstName: person.firstName,
        lastName: person.lastName,
        displayName: name,
        companyId: person.companyId,
        companyName: person.companyName,
        whatsapp: phone.e164,
        whatsappCountryCode: '+52',
        whatsappLocal: phone.local,
        whatsappConsentGiven: true,
        whatsappConsentAt: createdAt,
        roles: person.roles,
        createdAt,
        updatedAt: createdAt,
      });
      seeded.set(person.key, { ...person, id: user.id, displayName: name, whatsapp: phone.e164 });
    }
  });
  return seeded;
}
