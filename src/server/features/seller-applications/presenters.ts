import { reapplyAt, type SellerApplication } from '../../../domain/seller-applications.js';
import type { sellerApplications } from '../../db/schema.js';

/** A request's row with its applicant's name and e-mail (queries.ts, applicationColumns). */
export type ApplicationRow = Omit<typeof sellerApplications.$inferSelect, 'decidedBy'> & { applicantName: string | null; applicantEmail: string };

/** A request as the API answers it: times in epoch ms, and when a declined applicant may apply again. */
export function presentApplication(row: ApplicationRow): SellerApplication {
  const decidedAt = row.decidedAt?.getTime() ?? null;
  return {
    id: row.id,
    userId: row.userId,
    applicantName: row.applicantName,
    applicantEmail: row.applicantEmail,
    businessName: row.businessName,
    city: row.city,
    whatsapp: row.whatsapp,
    description: row.description,
    rfc: row.rfc,
    status: row.status,
    declineReason: row.declineReason,
    decidedAt,
    reapplyAt: row.status === 'declined' && decidedAt !== null ? reapplyAt(decidedAt) : null,
    companyId: row.companyId,
    createdAt: row.createdAt.getTime(),
  };
}
