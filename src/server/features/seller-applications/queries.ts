import { and, count, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { SellerApplicationList, SellerApplicationStatus } from '../../../domain/seller-applications.js';
import type { Db } from '../../db/connect.js';
import { sellerApplications, userProfiles } from '../../db/schema.js';
import type { CurrentUser } from '../../sessions/store.js';
import { mayDecide } from './policies.js';
import { presentApplication } from './presenters.js';

/** What a request's row and its applicant's profile give the API (joined on the applicant). */
export const applicationColumns = {
  id: sellerApplications.id,
  userId: sellerApplications.userId,
  applicantName: sql<
    string | null
  >`coalesce(nullif(trim(concat_ws(' ', ${userProfiles.firstName}, ${userProfiles.lastName})), ''), ${userProfiles.displayName})`,
  applicantEmail: userProfiles.email,
  businessName: sellerApplications.businessName,
  city: sellerApplications.city,
  whatsapp: sellerApplications.whatsapp,
  description: sellerApplications.description,
  rfc: sellerApplications.rfc,
  status: sellerApplications.status,
  declineReason: sellerApplications.declineReason,
  decidedAt: sellerApplications.decidedAt,
  companyId: sellerApplications.companyId,
  createdAt: sellerApplications.createdAt,
};

/** The panel shows at most this many; older decided requests stay in the audit log and the table. */
const LIST_LIMIT = 200;

/**
 * GET /api/seller-applications: a platform admin gets everyone's (optionally one status), pending
 * first and newest first within each; anyone else only their own, newest first.
 */
export async function listApplications(db: Db, opts: { actor: CurrentUser; status?: SellerApplicationStatus | undefined }): Promise<SellerApplicationList> {
  const all = mayDecide(opts.actor);
  const where: SQL | undefined = and(
    all ? undefined : eq(sellerApplications.userId, opts.actor.id),
    opts.status ? eq(sellerApplications.status, opts.status) : undefined,
  );
  const found = await db
    .select(applicationColumns)
    .from(sellerApplications)
    .innerJoin(userProfiles, eq(userProfiles.userId, sellerApplications.userId))
    .where(where)
    .orderBy(sql`(${sellerApplications.status} = 'pending') desc`, desc(sellerApplications.createdAt), desc(sellerApplications.id))
    .limit(LIST_LIMIT);
  const [pending] = await db
    .select({ n: count() })
    .from(sellerApplications)
    .where(and(eq(sellerApplications.status, 'pending'), all ? undefined : eq(sellerApplications.userId, opts.actor.id)));
  return { items: found.map(presentApplication), pending: pending?.n ?? 0 };
}
