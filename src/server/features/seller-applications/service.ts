import { desc, eq } from 'drizzle-orm';
import type { z } from 'zod';
import { isUuid } from '../../../domain/ids.js';
import { slugify } from '../../../domain/live-public.js';
import { ROLES, type Role } from '../../../domain/role-rules.js';
import { reapplyAt, type SellerApplication, type ZSellerApplicationInput } from '../../../domain/seller-applications.js';
import { recordAudit } from '../../audit.js';
import type { Db, Tx } from '../../db/connect.js';
import { pgError, UNIQUE_VIOLATION } from '../../db/errors.js';
import { companies, sellerApplications, userProfiles } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import type { Acting } from '../../http/request-context.js';
import { messages } from '../../messages.js';
import { ensureStoreSlug } from '../../reads/store-slugs.js';
import type { DomainEvent } from '../../realtime/publisher.js';
import type { CurrentUser } from '../../sessions/store.js';
import { notifyUser } from '../alerts/index.js';
import { mayDecide, sellsAlready } from './policies.js';
import { presentApplication } from './presenters.js';
import { applicationColumns } from './queries.js';

type Input = z.output<typeof ZSellerApplicationInput>;
type Decided = { application: SellerApplication; events: DomainEvent[] };

const M = messages.sellerApplications;
const MEXICO_DATE = new Intl.DateTimeFormat('es-MX', { dateStyle: 'long', timeZone: 'America/Mexico_City' });

/** The company's id: a slug of the business name, capped; a name that gives none falls back to one from the application. */
const COMPANY_ID_MAX = 60;

/**
 * POST /api/seller-applications: any signed-in account that does not sell yet, with no request in
 * review and none declined in the last 30 days. The pending request is unique per account
 * (seller_applications_one_pending), so two sends at once make one request.
 */
export async function applyToSell(db: Db, opts: Acting & { input: Input; now?: Date }): Promise<SellerApplication> {
  const now = opts.now ?? new Date();
  const { actor, input } = opts;
  if (sellsAlready(actor.roles)) throw new AppError('CONFLICT', M.alreadySeller);
  try {
    return await db.transaction(async (tx) => {
      // The profile's lock queues a second send from the same account behind the first.
      const [profile] = await tx.select({ roles: userProfiles.roles }).from(userProfiles).where(eq(userProfiles.userId, actor.id)).for('update');
      if (profile && sellsAlready(profile.roles as Role[])) throw new AppError('CONFLICT', M.alreadySeller);
      const [last] = await tx
        .select({ status: sellerApplications.status, decidedAt: sellerApplications.decidedAt })
        .from(sellerApplications)
        .where(eq(sellerApplications.userId, actor.id))
        .orderBy(desc(sellerApplications.createdAt))
        .limit(1);
      if (last?.status === 'pending') throw new AppError('CONFLICT', M.pending);
      if (last?.status === 'declined' && last.decidedAt) {
        const again = reapplyAt(last.decidedAt.getTime());
        if (again > now.getTime()) {
          throw new AppError('CONFLICT', M.declinedRecently.replace('{{date}}', MEXICO_DATE.format(new Date(again))), undefined, { reapplyAt: again });
        }
      }
      const [row] = await tx
        .insert(sellerApplications)
        .values({
          userId: actor.id,
          businessName: input.businessName,
          city: input.city,
          whatsapp: input.whatsapp,
          description: input.description,
          rfc: input.rfc,
          createdAt: now,
        })
        .returning({ id: sellerApplications.id });
      if (!row) throw new Error('insert returned nothing');
      await recordAudit(tx, {
        by: opts,
        action: 'seller_application.create',
        entityType: 'seller_application',
        entityId: row.id,
        after: { userId: actor.id, businessName: input.businessName, city: input.city },
      });
      return readOne(tx, row.id);
    });
  } catch (error) {
    if (pgError(error)?.code === UNIQUE_VIOLATION) throw new AppError('CONFLICT', M.pending);
    throw error;
  }
}

/** Locks a pending request for a platform admin's decision; anything else is refused. */
async function lockPending(tx: Tx, actor: CurrentUser, id: string) {
  if (!mayDecide(actor)) throw new AppError('FORBIDDEN', M.platformOnly);
  if (!isUuid(id)) throw new AppError('NOT_FOUND', M.notFound);
  const [row] = await tx.select().from(sellerApplications).where(eq(sellerApplications.id, id)).for('update');
  if (!row) throw new AppError('NOT_FOUND', M.notFound);
  if (row.status !== 'pending') {
    throw new AppError('CONFLICT', M.alreadyDecided.replace('{{status}}', row.status === 'approved' ? M.approvedWord : M.declinedWord));
  }
  return row;
}

/**
 * POST /api/seller-applications/{id}/approve, in one transaction: the request is approved, a company
 * is made for it (id: a free slug of the business name), the applicant becomes its admin and seller
 * (keeping buyer), gets a store slug and the city, and is told in the bell. Their open sessions and
 * sockets then follow the new roles (the `userAccessChanged` event, as a change of roles by an admin).
 */
export async function approveApplication(db: Db, opts: Acting & { id: string; now?: Date }): Promise<Decided> {
  const now = opts.now ?? new Date();
  return db.transaction(async (tx) => {
    const row = await lockPending(tx, opts.actor, opts.id);
    const [profile] = await tx
      .select({ roles: userProfiles.roles, companyId: userProfiles.companyId })
      .from(userProfiles)
      .where(eq(userProfiles.userId, row.userId))
      .for('update');
    if (!profile) throw new AppError('NOT_FOUND', M.notFound);
    const before = profile.roles as Role[];
    // An invitation may have made them a seller meanwhile: moving them to a new company would take them out of that one.
    if (sellsAlready(before)) throw new AppError('CONFLICT', M.applicantSells);
    const companyId = await createCompany(tx, { name: row.businessName, rfc: row.rfc, fallback: `empresa-${row.id.slice(0, 8)}` });
    const roles = ROLES.filter((r) => r === 'admin' || r === 'seller' || before.includes(r));
    await tx.update(userProfiles).set({ companyId, roles, city: row.city, updatedAt: now }).where(eq(userProfiles.userId, row.userId));
    const storeSlug = await ensureStoreSlug(tx, row.userId, row.businessName);
    await tx
      .update(sellerApplications)
      .set({ status: 'approved', decidedBy: opts.actor.id, decidedAt: now, companyId })
      .where(eq(sellerApplications.id, row.id));
    const told = await notifyUser(tx, { userId: row.userId, kind: 'application_approved', title: M.approvedTitle, body: M.approvedBody, url: '/admin' });
    await recordAudit(tx, {
      by: opts,
      action: 'seller_application.approve',
      entityType: 'seller_application',
      entityId: row.id,
      before: { status: 'pending', roles: before, companyId: profile.companyId },
      after: { status: 'approved', userId: row.userId, roles, companyId, storeSlug },
    });
    return { application: await readOne(tx, row.id), events: [{ type: 'userAccessChanged', userId: row.userId }, ...told.events] };
  });
}

/** POST /api/seller-applications/{id}/decline: declined with its reason, which the applicant reads; told in the bell. */
export async function declineApplication(db: Db, opts: Acting & { id: string; reason: string; now?: Date }): Promise<Decided> {
  const now = opts.now ?? new Date();
  return db.transaction(async (tx) => {
    const row = await lockPending(tx, opts.actor, opts.id);
    await tx
      .update(sellerApplications)
      .set({ status: 'declined', declineReason: opts.reason, decidedBy: opts.actor.id, decidedAt: now })
      .where(eq(sellerApplications.id, row.id));
    const told = await notifyUser(tx, { userId: row.userId, kind: 'application_declined', title: M.declinedTitle, body: opts.reason, url: '/vender' });
    await recordAudit(tx, {
      by: opts,
      action: 'seller_application.decline',
      entityType: 'seller_application',
      entityId: row.id,
      before: { status: 'pending' },
      after: { status: 'declined', userId: row.userId, reason: opts.reason },
    });
    return { application: await readOne(tx, row.id), events: told.events };
  });
}

/** The first free of `slug`, `slug-2`, `slug-3`… as a new company's id, with its record written. */
async function createCompany(tx: Tx, opts: { name: string; rfc: string | null; fallback: string }): Promise<string> {
  const base = slugify(opts.name).slice(0, COMPANY_ID_MAX).replace(/-+$/, '') || opts.fallback;
  for (let n = 1; n <= 100; n++) {
    const id = n === 1 ? base : `${base.slice(0, COMPANY_ID_MAX - String(n).length - 1)}-${n}`;
    // An id some profile already names has its record (trigger companies_ensure), so a free id here is free everywhere.
    const made = await tx.insert(companies).values({ id, name: opts.name, rfc: opts.rfc }).onConflictDoNothing().returning({ id: companies.id });
    if (made[0]) return made[0].id;
  }
  const last = `${opts.fallback}-${Date.now().toString(36)}`;
  await tx.insert(companies).values({ id: last, name: opts.name, rfc: opts.rfc });
  return last;
}

async function readOne(tx: Tx | Db, id: string): Promise<SellerApplication> {
  const [row] = await tx
    .select(applicationColumns)
    .from(sellerApplications)
    .innerJoin(userProfiles, eq(userProfiles.userId, sellerApplications.userId))
    .where(eq(sellerApplications.id, id));
  if (!row) throw new AppError('NOT_FOUND', M.notFound);
  return presentApplication(row);
}
