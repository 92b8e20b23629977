import { and, count, eq, inArray, or, sql } from 'drizzle-orm';
import { lockedChanges } from '../../../domain/auction-lock.js';
import type { AuctionDetail, AuctionStatus, AuctionValues, Condicion, PublicAuction } from '../../../domain/auctions.js';
import { isUuid } from '../../../domain/ids.js';
import { recordAudit } from '../../audit.js';
import type { Db, Tx } from '../../db/connect.js';
import { FOREIGN_KEY_VIOLATION, pgErrorCode } from '../../db/errors.js';
import { auctions, bids, categories, HOLDING_PAYMENT_STATUSES, liveLots, paymentItems, uploads } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import type { Acting } from '../../http/request-context.js';
import { messages } from '../../messages.js';
import { ensureCompany } from '../../reads/companies.js';
import { buildSearchText, companyNames, nameTokens } from '../../reads/search-text.js';
import { storeLink } from '../../reads/store-links.js';
import type { DomainEvent } from '../../realtime/publisher.js';
import type { CurrentUser } from '../../sessions/store.js';
import { auctionCreated, auctionDeleted, auctionUpdated } from './events.js';
import { type AuctionScope, auctionScope, isInScope, ownershipOfNewAuction } from './policies.js';
import { type AuctionRelations, presentDetail, presentPublic } from './presenters.js';

type AuctionRow = typeof auctions.$inferSelect;
type Actor = Pick<CurrentUser, 'id' | 'roles' | 'profileCompanyId' | 'companyId'>;
/** A committed change and the events it produced, for the caller to publish. */
type Changed = { row: AuctionRow; events: DomainEvent[] };

const notFound = () => new AppError('NOT_FOUND', messages.errors.notFound);

/** Field problems found against the database, all at once, as one 400. */
function fieldErrors(fields: Record<string, keyof typeof messages.fields>): AppError | null {
  const entries = Object.entries(fields);
  if (entries.length === 0) return null;
  return new AppError('VALIDATION', messages.errors.validation, Object.fromEntries(entries.map(([k, v]) => [k, messages.fields[v]])));
}

/** The category must exist; each image must be one of ours (uploaded by this company or user) or already on the auction. */
async function checkReferences(
  tx: Tx,
  opts: { input: AuctionValues; actor: Actor; companyId: string; keptImages?: readonly string[] },
): Promise<{ categoryName: string }> {
  const problems: Record<string, keyof typeof messages.fields> = {};
  const [category] = await tx.select({ name: categories.name }).from(categories).where(eq(categories.id, opts.input.categoryId));
  if (!category) problems.categoryId = 'categoryUnknown';
  const kept = new Set(opts.keptImages ?? []);
  const fresh = opts.input.images.filter((url) => !kept.has(url));
  if (fresh.length > 0) {
    const known = await tx
      .select({ url: uploads.url })
      .from(uploads)
      .where(and(inArray(uploads.url, fresh), or(eq(uploads.companyId, opts.companyId), eq(uploads.ownerId, opts.actor.id))));
    const knownUrls = new Set(known.map((k) => k.url));
    if (fresh.some((url) => !knownUrls.has(url))) problems.images = 'imageInvalid';
  }
  const error = fieldErrors(problems);
  if (error) throw error;
  return { categoryName: category?.name ?? '' };
}

/** The columns the form sets (SPEC §5), as the validated input gives them. */
function formColumns(input: AuctionValues) {
  const { name, description, categoryId, startingPrice, buyNowPrice, condicion, marca, envio, endTime, images } = input;
  return { name, description, categoryId, startingPrice, buyNowPrice, condicion, marca, envio, endTime, images };
}

async function searchColumns(tx: Tx, input: AuctionValues, opts: { categoryName: string; companyId: string; winnerName: string | null }) {
  // A solo seller's first auction creates its company record, so the search finds its name at once.
  await ensureCompany(tx, opts.companyId);
  const company = (await companyNames(tx, [opts.companyId])).get(opts.companyId) ?? null;
  return {
    nameTokens: nameTokens(input.name),
    searchText: buildSearchText({ ...input, categoryName: opts.categoryName, companyName: company, winnerName: opts.winnerName }),
  };
}

/** SPEC §5 and §4: an active auction needs an end time, and a new end time must be in the future. */
function checkSchedule(opts: { status: string; endTime: Date | null; endTimeChanged: boolean; statusChanged: boolean; now: number }): void {
  const { status, endTime, now } = opts;
  if (endTime && opts.endTimeChanged && endTime.getTime() <= now) throw fieldErrors({ endTime: 'endTimePast' }) as AppError;
  if (status === 'active' && !endTime) throw fieldErrors({ endTime: 'endTimeRequired' }) as AppError;
  if (status === 'active' && opts.statusChanged && endTime && endTime.getTime() <= now) throw fieldErrors({ endTime: 'endTimePast' }) as AppError;
}

export async function createAuction(db: Db, opts: Acting<Actor> & { input: AuctionValues }): Promise<Changed> {
  const { actor, input } = opts;
  const { sellerId, companyId } = ownershipOfNewAuction(actor);
  const status = input.status ?? 'pending';
  checkSchedule({ status, endTime: input.endTime, endTimeChanged: true, statusChanged: true, now: Date.now() });
  const row = await db.transaction(async (tx) => {
    const { categoryName } = await checkReferences(tx, { input, actor, companyId });
    const [row] = await tx
      .insert(auctions)
      .values({
        ...formColumns(input),
        status,
        sellerId,
        companyId,
        ...(await searchColumns(tx, input, { categoryName, companyId, winnerName: null })),
      })
      .returning();
    if (!row) throw new Error('insert returned nothing');
    await recordAudit(tx, {
      by: opts,
      action: 'auction.create',
      entityType: 'auction',
      entityId: row.id,
      after: { name: row.name, companyId },
    });
    return row;
  });
  return { row, events: [auctionCreated(row)] };
}

/** Loads an auction the actor may change, locked for the transaction; anything else is a 404. */
async function lockInScope(tx: Tx, id: string, scope: AuctionScope): Promise<AuctionRow> {
  if (!isUuid(id)) throw notFound();
  const [row] = await tx.select().from(auctions).where(eq(auctions.id, id)).for('update');
  if (!row || !isInScope(scope, row)) throw notFound();
  return row;
}

async function holdingPaymentId(tx: Db | Tx, auctionId: string): Promise<string | null> {
  const [held] = await tx
    .select({ paymentId: paymentItems.paymentId })
    .from(paymentItems)
    .where(and(eq(paymentItems.auctionId, auctionId), inArray(paymentItems.paymentStatus, [...HOLDING_PAYMENT_STATUSES])));
  return held?.paymentId ?? null;
}

/** What bidders relied on stays as they saw it: a 409 naming each field (src/domain/auction-lock.ts says which). */
function refuseLockedChanges(before: AuctionRow, input: AuctionValues, hasBids: boolean): void {
  const stored = {
    ...before,
    condicion: before.condicion as Condicion | null,
    status: before.status as AuctionStatus,
    endTime: before.endTime?.getTime() ?? null,
  };
  const found = lockedChanges(stored, { ...input, endTime: input.endTime?.getTime() ?? null }, { hasBids });
  const entries = Object.entries(found);
  if (entries.length === 0) return;
  throw new AppError('CONFLICT', messages.auctions.lockedByBids, Object.fromEntries(entries.map(([field, code]) => [field, messages.fields[code]])));
}

export async function updateAuction(db: Db, opts: Acting<Actor> & { id: string; input: AuctionValues }): Promise<Changed> {
  const { actor, input } = opts;
  const row = await db.transaction(async (tx) => {
    const before = await lockInScope(tx, opts.id, auctionScope(actor));
    const now = Date.now();
    const status = input.status ?? before.status;
    const statusChanged = status !== before.status;
    const endTimeChanged = (input.endTime?.getTime() ?? null) !== (before.endTime?.getTime() ?? null);
    // bidCount is read under the row lock every bid engine call also takes, so no bid slips in between.
    const hasBids = before.bidCount > 0;
    refuseLockedChanges(before, input, hasBids);
    if (statusChanged || endTimeChanged) {
      if (before.currentWinnerId || (await holdingPaymentId(tx, before.id))) throw new AppError('CONFLICT', messages.auctions.wonLocked);
      const endedBefore = before.status === 'ended' || (before.endTime !== null && before.endTime.getTime() <= now);
      if (endedBefore && hasBids) throw new AppError('CONFLICT', messages.auctions.endedWithBids);
      checkSchedule({ status, endTime: input.endTime, endTimeChanged, statusChanged, now });
    }
    const { categoryName } = await checkReferences(tx, { input, actor, companyId: before.companyId, keptImages: before.images });
    const [row] = await tx
      .update(auctions)
      .set({
        ...formColumns(input),
        status,
        version: sql`${auctions.version} + 1`,
        updatedAt: new Date(),
        ...(await searchColumns(tx, input, { categoryName, companyId: before.companyId, winnerName: before.currentWinnerName })),
      })
      .where(eq(auctions.id, before.id))
      .returning();
    if (!row) throw notFound();
    await recordAudit(tx, {
      by: opts,
      action: 'auction.update',
      entityType: 'auction',
      entityId: row.id,
      before: { name: before.name, startingPrice: before.startingPrice, status: before.status, endTime: before.endTime },
      after: { name: row.name, startingPrice: row.startingPrice, status: row.status, endTime: row.endTime },
    });
    return row;
  });
  return { row, events: [auctionUpdated(row)] };
}

/** What references an auction: its bids, payment items (of any status) and live lots. */
async function holdsOn(db: Db | Tx, auctionId: string): Promise<{ bids: number; paymentItems: number; lots: number }> {
  const [[bidRows], [itemRows], [lotRows]] = await Promise.all([
    db.select({ n: count() }).from(bids).where(eq(bids.auctionId, auctionId)),
    db.select({ n: count() }).from(paymentItems).where(eq(paymentItems.auctionId, auctionId)),
    db.select({ n: count() }).from(liveLots).where(eq(liveLots.auctionId, auctionId)),
  ]);
  return { bids: Number(bidRows?.n ?? 0), paymentItems: Number(itemRows?.n ?? 0), lots: Number(lotRows?.n ?? 0) };
}

/** Why an auction cannot be deleted, or null when it can. */
function deleteRefusal(row: Pick<AuctionRow, 'bidCount'>, holds: Awaited<ReturnType<typeof holdsOn>>): string | null {
  if (row.bidCount > 0 || holds.bids > 0) return messages.auctions.deleteHasBids;
  if (holds.paymentItems > 0) return messages.auctions.deleteInPayment;
  if (holds.lots > 0) return messages.auctions.deleteInLiveSession;
  return null;
}

/** Refused while bids, a payment or a live session hold the auction (their rows reference it). */
export async function deleteAuction(db: Db, opts: Acting<Actor> & { id: string }): Promise<Changed> {
  try {
    const row = await db.transaction(async (tx) => {
      const row = await lockInScope(tx, opts.id, auctionScope(opts.actor));
      const reason = deleteRefusal(row, await holdsOn(tx, row.id));
      if (reason) throw new AppError('CONFLICT', reason);
      await tx.delete(auctions).where(eq(auctions.id, row.id));
      await recordAudit(tx, {
        by: opts,
        action: 'auction.delete',
        entityType: 'auction',
        entityId: row.id,
        before: { name: row.name, companyId: row.companyId },
      });
      return row;
    });
    return { row, events: [auctionDeleted(row)] };
  } catch (err) {
    // A bid that raced in after the checks still holds the auction through its foreign key.
    if (pgErrorCode(err) === FOREIGN_KEY_VIOLATION) throw new AppError('CONFLICT', messages.auctions.deleteHasBids);
    throw err;
  }
}

async function relations(db: Db, row: AuctionRow): Promise<AuctionRelations> {
  const [category, names, images, store] = await Promise.all([
    row.categoryId ? db.select({ name: categories.name }).from(categories).where(eq(categories.id, row.categoryId)) : Promise.resolve([]),
    companyNames(db, [row.companyId]),
    row.images.length
      ? db.select({ url: uploads.url, thumbnailUrl: uploads.thumbnailUrl }).from(uploads).where(inArray(uploads.url, row.images))
      : Promise.resolve([]),
    storeLink(db, row.sellerId),
  ]);
  const thumbs = new Map(images.map((i) => [i.url, i.thumbnailUrl]));
  return {
    categoryName: category[0]?.name ?? null,
    companyName: names.get(row.companyId) ?? null,
    imageDetails: row.images.map((url) => ({ url, thumbnailUrl: thumbs.get(url) ?? null })),
    store,
  };
}

/**
 * GET /api/auctions/{id}: public. A panel user whose scope covers the auction also gets the
 * private fields (winner contact, seller, payment); everyone else the public view.
 */
export async function getAuction(db: Db, opts: { id: string; viewer: Actor | null }): Promise<PublicAuction | AuctionDetail> {
  if (!isUuid(opts.id)) throw notFound();
  const [row] = await db.select().from(auctions).where(eq(auctions.id, opts.id));
  if (!row) throw notFound();
  return describeAuction(db, { row, viewer: opts.viewer });
}

/** The answer for a row already in hand (after a create or an edit): public, or detailed for its own panel. */
export async function describeAuction(db: Db, opts: { row: AuctionRow; viewer: Actor | null }): Promise<PublicAuction | AuctionDetail> {
  const { row } = opts;
  const rel = await relations(db, row);
  const now = Date.now();
  const viewer = opts.viewer;
  const isPanelViewer = viewer && (viewer.roles.includes('admin') || viewer.roles.includes('seller')) && isInScope(auctionScope(viewer), row);
  if (!isPanelViewer) return presentPublic(row, rel, now);
  const [paymentId, holds] = await Promise.all([holdingPaymentId(db, row.id), holdsOn(db, row.id)]);
  const canDelete = deleteRefusal(row, holds) === null;
  return presentDetail(row, { ...rel, paymentId, canDelete }, now);
}
