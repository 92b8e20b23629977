import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/connect.js';
import { userProfiles, users } from '../../db/schema.js';

/**
 * The bidders a rehearsal ('Ensayo') plays: users marked is_simulated, made once on demand. Their
 * profiles are complete (a last name, a WhatsApp number with consent), so the bid engine takes
 * their bids as anyone's; their addresses are in the reserved `.invalid` domain, no identity
 * provider knows them, and sign-in refuses them (auth/accounts.ts). The users list, the
 * development sign-in form and the first-admin count leave them out.
 */

export interface SimulatedBidder {
  id: string;
  name: string;
}

/** Spanish-looking names, one per simulated bidder; the list's order is their order. */
export const SIMULATED_NAMES = [
  ['Lucía', 'Hernández'],
  ['Mateo', 'Ramírez'],
  ['Valentina', 'Cruz'],
  ['Diego', 'Morales'],
  ['Camila', 'Torres'],
  ['Santiago', 'Flores'],
] as const;

const emailOf = (i: number) => `ensayo-${i + 1}@postores.simulado.invalid`;

/** The simulated bidders, created the first time they are needed (several instances may race: the e-mail is unique). */
export async function ensureSimulatedBidders(db: Db): Promise<SimulatedBidder[]> {
  const found = await readSimulated(db);
  if (found.length >= SIMULATED_NAMES.length) return found;
  await db.transaction(async (tx) => {
    for (const [i, [first, last]] of SIMULATED_NAMES.entries()) {
      const email = emailOf(i);
      const [made] = await tx.insert(users).values({ email, emailVerified: false, isSimulated: true }).onConflictDoNothing().returning({ id: users.id });
      if (!made) continue;
      await tx.insert(userProfiles).values({
        userId: made.id,
        email,
        firstName: first,
        lastName: last,
        displayName: `${first} ${last}`,
        whatsapp: `+52155500000${i + 1}`,
        whatsappCountryCode: '+52',
        whatsappLocal: `155500000${i + 1}`,
        whatsappConsentGiven: true,
        whatsappConsentAt: new Date(),
        roles: ['buyer'],
      });
    }
  });
  return readSimulated(db);
}

async function readSimulated(db: Db): Promise<SimulatedBidder[]> {
  return db
    .select({ id: users.id, name: userProfiles.displayName })
    .from(users)
    .innerJoin(userProfiles, eq(userProfiles.userId, users.id))
    .where(eq(users.isSimulated, true))
    .orderBy(asc(users.email))
    .then((found) => found.map((u) => ({ id: u.id, name: u.name ?? '' })));
}
