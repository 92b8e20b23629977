import { and, asc, count, eq, isNull, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Company, CompanyListResponse, ZCompanyInput } from '../../../domain/companies.js';
import { isUuid } from '../../../domain/ids.js';
import { foldText } from '../../../domain/text.js';
import { type AuditOrigin, recordAudit } from '../../audit.js';
import type { Db, Tx } from '../../db/connect.js';
import { escapeLike, foldedSql } from '../../db/like.js';
import { companies, userProfiles } from '../../db/schema.js';
import type { Acting } from '../../http/request-context.js';
import { ensureCompany } from '../../reads/companies.js';
import { refreshAuctionSearchText } from '../../reads/search-text.js';
import { assertManages, type CompanyActor, companyNotFound, companyScope, companyScopeWhere } from './policies.js';
import { presentCompany } from './presenters.js';

/** GET /api/companies: the actor's companies (all for a platform admin), by name. */
export async function listCompanies(db: Db, opts: { actor: CompanyActor; search: string; page: number; pageSize: number }): Promise<CompanyListResponse> {
  const scope = companyScope(opts.actor);
  // A solo seller's one-person company gets its record the first time it is asked for.
  if (scope.kind === 'own') await ensureCompany(db, scope.companyId);
  const where = and(companyScopeWhere(scope), searchFilter(opts.search));
  const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(companies).where(where);
  const found = await db
    .select()
    .from(companies)
    .where(where)
    .orderBy(asc(sql`lower(${companies.name})`), asc(companies.id))
    .limit(opts.pageSize)
    .offset((opts.page - 1) * opts.pageSize);
  return { items: found.map(presentCompany), total, page: opts.page, pageSize: opts.pageSize };
}

/** GET /api/companies/{id}. */
export async function getCompany(db: Db, opts: { actor: CompanyActor; id: string }): Promise<Company> {
  assertManages(opts.actor, opts.id);
  if (opts.id === opts.actor.companyId) await ensureCompany(db, opts.id);
  const [row] = await db.select().from(companies).where(eq(companies.id, opts.id));
  if (!row) throw companyNotFound();
  return presentCompany(row);
}

/** PUT /api/companies/{id}: name, RFC, razón social, payment deadline and strike limit. */
export async function updateCompany(db: Db, opts: Acting<CompanyActor> & { id: string; input: z.output<typeof ZCompanyInput> }): Promise<Company> {
  assertManages(opts.actor, opts.id);
  return db.transaction(async (tx) => {
    if (opts.id === opts.actor.companyId) await ensureCompany(tx, opts.id);
    return renameCompany(tx, { by: opts, id: opts.id, set: opts.input });
  });
}

/**
 * Saves a company's record inside the caller's transaction (the caller has checked who may):
 * a new name reaches its auctions' search text and, for a one-person company, its owner's profile.
 */
export async function renameCompany(
  tx: Tx,
  opts: {
    by: AuditOrigin;
    id: string;
    set: {
      name: string;
      rfc?: string | null;
      legalName?: string | null;
      paymentDeadlineHours?: number | undefined;
      strikeLimit?: number | undefined;
      recordShows?: boolean | undefined;
    };
  },
): Promise<Company> {
  const [before] = await tx.select().from(companies).where(eq(companies.id, opts.id)).for('update');
  if (!before) throw companyNotFound();
  const {
    name,
    rfc = before.rfc,
    legalName = before.legalName,
    paymentDeadlineHours = before.paymentDeadlineHours,
    strikeLimit = before.strikeLimit,
    recordShows = before.recordShows,
  } = opts.set;
  if (
    before.name === name &&
    before.rfc === rfc &&
    before.legalName === legalName &&
    before.paymentDeadlineHours === paymentDeadlineHours &&
    before.strikeLimit === strikeLimit &&
    before.recordShows === recordShows
  )
    return presentCompany(before);
  const [row] = await tx
    .update(companies)
    .set({ name, rfc, legalName, paymentDeadlineHours, strikeLimit, recordShows, updatedAt: new Date() })
    .where(eq(companies.id, opts.id))
    .returning();
  if (!row) throw companyNotFound();
  if (before.name !== name) {
    await refreshAuctionSearchText(tx, { companyId: opts.id });
    // 'Mi perfil' shows a one-person company's name as the owner's business name: keep them equal.
    if (isUuid(opts.id)) {
      await tx
        .update(userProfiles)
        .set({ companyName: name })
        .where(and(eq(userProfiles.userId, opts.id), isNull(userProfiles.companyId)));
    }
  }
  // The payment and recording settings appear in the audit row when they changed.
  const settings = { before: {} as Record<string, number | boolean>, after: {} as Record<string, number | boolean> };
  if (before.paymentDeadlineHours !== paymentDeadlineHours) {
    settings.before.paymentDeadlineHours = before.paymentDeadlineHours;
    settings.after.paymentDeadlineHours = paymentDeadlineHours;
  }
  if (before.strikeLimit !== strikeLimit) {
    settings.before.strikeLimit = before.strikeLimit;
    settings.after.strikeLimit = strikeLimit;
  }
  if (before.recordShows !== recordShows) {
    settings.before.recordShows = before.recordShows;
    settings.after.recordShows = recordShows;
  }
  await recordAudit(tx, {
    by: opts.by,
    action: 'company.update',
    entityType: 'company',
    entityId: opts.id,
    before: { name: before.name, rfc: before.rfc, legalName: before.legalName, ...settings.before },
    after: { name, rfc, legalName, ...settings.after },
  });
  return presentCompany(row);
}

/** Name, id, RFC and razón social, ignoring case and accents. */
function searchFilter(search: string): SQL | undefined {
  const needle = foldText(search);
  if (!needle) return undefined;
  const haystack = sql`concat_ws(' | ', ${companies.name}, ${companies.id}, ${companies.rfc}, ${companies.legalName})`;
  return sql`${foldedSql(haystack)} like ${`%${escapeLike(needle)}%`}`;
}
