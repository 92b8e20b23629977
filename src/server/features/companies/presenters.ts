import type { Company } from '../../../domain/companies.js';
import type { companies } from '../../db/schema.js';

export function presentCompany(row: typeof companies.$inferSelect): Company {
  return {
    id: row.id,
    name: row.name,
    rfc: row.rfc,
    legalName: row.legalName,
    paymentDeadlineHours: row.paymentDeadlineHours,
    strikeLimit: row.strikeLimit,
    recordShows: row.recordShows,
    createdAt: row.createdAt.getTime(),
    updatedAt: row.updatedAt.getTime(),
  };
}
