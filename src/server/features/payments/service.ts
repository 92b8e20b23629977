import { and, asc, desc, eq, ilike, inArray, isNotNull, notExists, or, type SQL, sql } from 'drizzle-orm';
import { isUuid } from '../../../domain/ids.js';
import {
  applyPaymentEvent,
  hasShipping,
  type PaymentEvent,
  type PaymentMachineState,
  type PaymentRefusal,
  type PaymentStatus,
  type PaymentView,
  type ShippingInput,
  type WinnersSummary,
} from '../../../domain/payments.js';
import { isAdmin } from '../../../domain/roles.js';
import { recordAudit } from '../../audit.js';
import type { Db, Tx } from '../../db/connect.js';
import { pgError, UNIQUE_VIOLATION } from '../../db/errors.js';
import { escapeLike } from '../../db/like.js';
import { auctions, HOLDING_PAYMENT_STATUSES, paymentItems, payments } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import { messages } from '../../messages.js';
import type { Checkout, CheckoutInput, ProviderPayment } from '../../providers/payments/index.js';
import { type AuctionScope, auctionScope, isInScope, scopeWhere } from '../auctions/policies.js';
import type { CurrentUser } from '../auth/sessions.js';

/**
 * Billing winners (SPEC §2–§7). Every change runs in one transaction that locks the payment row
 * (and the auctions it takes), checks the rules of src/domain/payments.ts, and writes the audit
 * log; the caller broadcasts `paymentStatusUpdate` after the commit. An auction is in at most one
 * draft, pending or paid payment: payment_items' partial unique index holds that even against two
 * requests racing. Totals are computed here, never taken from the client.
 */

type PaymentRow = typeof payments.$inferSelect;
type Actor = Pick<CurrentUser, 'id' | 'roles' | 'profileCompanyId' | 'companyId'>;

/** A payment change, for the caller to answer and broadcast after the commit. */
export interface PaymentChange {
  payment: PaymentView;
  /** Auctions whose billing changed (taken, released or paid). */
  auctionIds: string[];
}

const notFound = () => new AppError('NOT_FOUND', messages.errors.notFound);
const conflict = (message: string) => new AppError('CONFLICT', message);

const REFUSALS: Record<PaymentRefusal, string> = {
  notDraft: messages.payments.notDraft,
  notCancelable: messages.payments.notCancelable,
  notPaid: messages.payments.notPaid,
  payoutAlreadyRequested: messages.payments.payoutAlreadyRequested,
  alreadyPaidOut: messages.payments.alreadyPaidOut,
};

/** Which payments a panel user sees: those of the auctions they see (SPEC §6). */
export const paymentScope = (user: Actor): AuctionScope => auctionScope(user);

function paymentScopeWhere(scope: AuctionScope): SQL | undefined {
  switch (scope.kind) {
    case 'all':
      return undefined;
    case 'company':
      return or(eq(payments.companyId, scope.companyId), eq(payments.sellerId, scope.userId));
    case 'seller':
      return eq(payments.sellerId, scope.userId);
  }
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function present(row: PaymentRow, items: { auctionId: string; auctionName: string; amount: number }[]): PaymentView {
  return {
    id: row.id,
    winnerId: row.winnerId,
    winnerName: row.winnerName,
    winnerWhatsapp: row.winnerWhatsapp,
    sellerId: row.sellerId,
    companyId: row.companyId,
    companyName: row.companyName,
    auctionIds: items.map((i) => i.auctionId),
    wonItems: items.map((i) => ({ auctionId: i.auctionId, auctionName: i.auctionName, amount: i.amount })),
    totalAmount: row.totalAmount,
    shippingCarrier: row.shippingCarrier,
    shippingCost: row.shippingCost,
    grandTotal: row.totalAmount + row.shippingCost,
    paymentStatus: row.paymentStatus,
    paymentLink: row.paymentLink,
    paidAt: iso(row.paidAt),
    payoutStatus: row.payoutStatus,
    mpPaymentId: row.mpPaymentId,
    mpPreferenceId: row.mpPreferenceId,
    provider: row.provider === 'sandbox' || row.provider === 'mercadopago' ? row.provider : null,
    providerStatus: row.providerStatus,
    webhookAt: iso(row.webhookAt),
    flagged: row.flagged,
    collectedBySeller: row.collectedBySeller,
    linkExpiresAt: iso(row.linkExpiresAt),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

async function itemsOf(db: Db | Tx, paymentIds: string[]) {
  if (paymentIds.length === 0) return new Map<string, { auctionId: string; auctionName: string; amount: number }[]>();
  const rows = await db
    .select({ paymentId: paymentItems.paymentId, auctionId: paymentItems.auctionId, auctionName: paymentItems.auctionName, amount: paymentItems.amount })
    .from(paymentItems)
    .where(inArray(paymentItems.paymentId, paymentIds))
    .orderBy(asc(paymentItems.createdAt), asc(paymentItems.auctionName));
  const byPayment = new Map<string, { auctionId: string; auctionName: string; amount: number }[]>();
  for (const r of rows) byPayment.set(r.paymentId, [...(byPayment.get(r.paymentId) ?? []), r]);
  return byPayment;
}

async function view(db: Db | Tx, row: PaymentRow): Promise<PaymentView> {
  return present(row, (await itemsOf(db, [row.id])).get(row.id) ?? []);
}

/** Writes a change to a locked payment, records it in the audit log and answers the payment as it now stands. */
async function save(
  tx: Tx,
  row: PaymentRow,
  set: Partial<typeof payments.$inferInsert>,
  audit: { actorId: string | null; action: string; before: unknown; after?: (answer: PaymentView) => unknown; ip?: string },
): Promise<PaymentView> {
  const [updated] = await tx
    .update(payments)
    .set({ ...set, updatedAt: new Date() })
    .where(eq(payments.id, row.id))
    .returning();
  const answer = await view(tx, updated as PaymentRow);
  await recordAudit(tx, {
    actorId: audit.actorId,
    action: audit.action,
    entityType: 'payment',
    entityId: row.id,
    before: audit.before,
    after: audit.after ? audit.after(answer) : answer,
    ip: audit.ip ?? null,
  });
  return answer;
}

// ── Reads ────────────────────────────────────────────────────────────────────

/** GET /api/payments: newest first, at most 500, optionally by status and a search over winner, company and id. */
export async function listPayments(db: Db, opts: { scope: AuctionScope; status?: PaymentStatus; q?: string }): Promise<PaymentView[]> {
  const q = opts.q?.trim();
  const search = q
    ? or(
        ilike(payments.winnerName, `%${escapeLike(q)}%`),
        ilike(payments.companyName, `%${escapeLike(q)}%`),
        ilike(payments.companyId, `%${escapeLike(q)}%`),
        sql`${payments.id}::text like ${`${escapeLike(q.toLowerCase())}%`}`,
        eq(payments.mpPaymentId, q),
      )
    : undefined;
  const rows = await db
    .select()
    .from(payments)
    .where(and(paymentScopeWhere(opts.scope), opts.status ? eq(payments.paymentStatus, opts.status) : undefined, search))
    .orderBy(desc(payments.createdAt), desc(payments.id))
    .limit(500);
  const items = await itemsOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => present(r, items.get(r.id) ?? []));
}

/**
 * GET /api/winners-summary: ended auctions with a winner that are in no draft, pending or paid
 * payment, grouped by winner (and company: a payment belongs to one).
 */
export async function winnersSummary(db: Db, opts: { scope: AuctionScope }): Promise<WinnersSummary> {
  const rows = await db
    .select({
      id: auctions.id,
      name: auctions.name,
      amount: auctions.currentPrice,
      winnerId: auctions.currentWinnerId,
      winnerName: auctions.currentWinnerName,
      winnerWhatsapp: auctions.winnerWhatsapp,
      companyId: auctions.companyId,
      sellerId: auctions.sellerId,
      endTime: auctions.endTime,
    })
    .from(auctions)
    .where(
      and(
        scopeWhere(opts.scope),
        eq(auctions.status, 'ended'),
        isNotNull(auctions.currentWinnerId),
        notExists(
          db
            .select({ one: sql`1` })
            .from(paymentItems)
            .where(and(eq(paymentItems.auctionId, auctions.id), inArray(paymentItems.paymentStatus, [...HOLDING_PAYMENT_STATUSES]))),
        ),
      ),
    )
    .orderBy(asc(auctions.endTime), asc(auctions.id))
    .limit(5000);
  const companyNames = await companyNamesOf(
    db,
    rows.map((r) => r.companyId),
  );
  const summary: WinnersSummary = {};
  /** The (company, seller) whose items a winner's plain key holds; another's go under `winnerId:companyId:sellerId`. */
  const firstGroup = new Map<string, string>();
  for (const r of rows) {
    const winnerId = r.winnerId as string;
    const group = `${r.companyId}:${r.sellerId ?? ''}`;
    if (!firstGroup.has(winnerId)) firstGroup.set(winnerId, group);
    const key = firstGroup.get(winnerId) === group ? winnerId : `${winnerId}:${group}`;
    let entry = summary[key];
    if (!entry) {
      entry = {
        winnerId,
        sellerId: r.sellerId,
        winnerName: r.winnerName ?? '',
        winnerWhatsapp: r.winnerWhatsapp,
        companyId: r.companyId,
        companyName: companyNames.get(r.companyId) ?? null,
        wonItems: [],
        totalAmount: 0,
      };
      summary[key] = entry;
    }
    const amount = r.amount ?? 0;
    entry.wonItems.push({ auctionId: r.id, auctionName: r.name, amount });
    entry.totalAmount += amount;
    entry.winnerWhatsapp ??= r.winnerWhatsapp;
  }
  return summary;
}

/** A company's display name, from the profile of one of its people (SPEC has no company entity). */
async function companyNamesOf(db: Db | Tx, companyIds: string[]): Promise<Map<string, string>> {
  const ids = [...new Set(companyIds)];
  if (ids.length === 0) return new Map();
  const found = await db.execute(
    sql`select distinct on (company_id) company_id, company_name from user_profiles where company_id in (${sql.join(
      ids.map((id) => sql`${id}`),
      sql`, `,
    )}) and nullif(trim(company_name), '') is not null order by company_id, updated_at desc`,
  );
  return new Map((found as unknown as { rows: { company_id: string; company_name: string }[] }).rows.map((r) => [r.company_id, r.company_name]));
}

// ── Changes ──────────────────────────────────────────────────────────────────

async function lockPayment(tx: Tx, id: string, scope: AuctionScope): Promise<PaymentRow> {
  const [row] = await tx.select().from(payments).where(eq(payments.id, id)).for('update');
  if (!row || !isInScope(scope, { companyId: row.companyId, sellerId: row.sellerId })) throw notFound();
  return row;
}

/**
 * Locks the auctions a payment takes and checks each: in the actor's scope, ended, won by this
 * winner, of the payment's company and seller, and in no other draft, pending or paid payment.
 * Locked in id order, so two drafts taking overlapping auctions wait for each other instead of
 * deadlocking.
 */
async function lockBillable(
  tx: Tx,
  opts: { auctionIds: string[]; winnerId: string; scope: AuctionScope; payment: { companyId: string; sellerId: string | null } | null },
) {
  const ids = [...opts.auctionIds].sort();
  const rows = await tx
    .select({
      id: auctions.id,
      name: auctions.name,
      amount: auctions.currentPrice,
      status: auctions.status,
      winnerId: auctions.currentWinnerId,
      companyId: auctions.companyId,
      sellerId: auctions.sellerId,
    })
    .from(auctions)
    .where(inArray(auctions.id, ids))
    .orderBy(asc(auctions.id))
    .for('update');
  if (rows.length !== ids.length) throw conflict(messages.payments.notBillable);
  for (const r of rows) {
    if (!isInScope(opts.scope, r) || r.status !== 'ended' || r.winnerId !== opts.winnerId) throw conflict(messages.payments.notBillable);
  }
  // One company and one seller per payment: the seller's account collects it, and its people see it.
  const first = opts.payment ?? (rows[0] as (typeof rows)[number]);
  if (rows.some((r) => r.companyId !== first.companyId)) throw conflict(messages.payments.mixedCompanies);
  if (rows.some((r) => r.sellerId !== first.sellerId)) throw conflict(messages.payments.mixedSellers);
  const held = await tx
    .select({ auctionId: paymentItems.auctionId })
    .from(paymentItems)
    .where(and(inArray(paymentItems.auctionId, ids), inArray(paymentItems.paymentStatus, [...HOLDING_PAYMENT_STATUSES])))
    .limit(1);
  if (held.length) throw conflict(messages.payments.alreadyBilled);
  return rows;
}

/** The unique index saw another payment take one of the auctions first (two requests raced). */
async function billing<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (pgError(err)?.code === UNIQUE_VIOLATION && pgError(err)?.constraint === 'payment_items_one_holding_payment')
      throw conflict(messages.payments.alreadyBilled);
    throw err;
  }
}

/** POST /api/payments/draft: the winner's chosen auctions become one draft payment. */
export async function createDraft(db: Db, opts: { actor: Actor; winnerId: string; auctionIds: string[]; ip?: string }): Promise<PaymentChange> {
  const scope = paymentScope(opts.actor);
  return billing(() =>
    db.transaction(async (tx) => {
      const taken = await lockBillable(tx, { auctionIds: opts.auctionIds, winnerId: opts.winnerId, scope, payment: null });
      const first = taken[0] as (typeof taken)[number];
      const [winner] = await tx.select({ name: auctions.currentWinnerName, whatsapp: auctions.winnerWhatsapp }).from(auctions).where(eq(auctions.id, first.id));
      const companyName = (await companyNamesOf(tx, [first.companyId])).get(first.companyId) ?? null;
      const [row] = await tx
        .insert(payments)
        .values({
          winnerId: opts.winnerId,
          winnerName: winner?.name ?? '',
          winnerWhatsapp: winner?.whatsapp ?? null,
          sellerId: first.sellerId,
          companyId: first.companyId,
          companyName,
          totalAmount: taken.reduce((sum, t) => sum + (t.amount ?? 0), 0),
          paymentStatus: 'draft',
          createdBy: opts.actor.id,
        })
        .returning();
      const payment = row as PaymentRow;
      await tx
        .insert(paymentItems)
        .values(taken.map((t) => ({ paymentId: payment.id, paymentStatus: 'draft' as const, auctionId: t.id, auctionName: t.name, amount: t.amount ?? 0 })));
      const answer = await view(tx, payment);
      await recordAudit(tx, {
        actorId: opts.actor.id,
        action: 'payment.draft',
        entityType: 'payment',
        entityId: payment.id,
        after: answer,
        ip: opts.ip ?? null,
      });
      return { payment: answer, auctionIds: answer.auctionIds };
    }),
  );
}

/** POST /api/payments/{id}/add-auctions: more of the same winner's unbilled auctions, while a draft. */
export async function addAuctions(db: Db, opts: { actor: Actor; id: string; auctionIds: string[]; ip?: string }): Promise<PaymentChange> {
  const scope = paymentScope(opts.actor);
  return billing(() =>
    db.transaction(async (tx) => {
      const row = await lockPayment(tx, opts.id, scope);
      if (row.paymentStatus !== 'draft') throw conflict(messages.payments.notDraft);
      const before = await view(tx, row);
      const fresh = opts.auctionIds.filter((id) => !before.auctionIds.includes(id));
      if (fresh.length === 0) return { payment: before, auctionIds: [] };
      const taken = await lockBillable(tx, { auctionIds: fresh, winnerId: row.winnerId, scope, payment: row });
      await tx
        .insert(paymentItems)
        .values(taken.map((t) => ({ paymentId: row.id, paymentStatus: 'draft' as const, auctionId: t.id, auctionName: t.name, amount: t.amount ?? 0 })));
      const answer = await save(
        tx,
        row,
        { totalAmount: row.totalAmount + taken.reduce((sum, t) => sum + (t.amount ?? 0), 0) },
        { actorId: opts.actor.id, action: 'payment.addAuctions', before, ip: opts.ip },
      );
      return { payment: answer, auctionIds: taken.map((t) => t.id) };
    }),
  );
}

/** POST /api/payments/{id}/update-shipping: carrier and cost, while a draft (a link's amount is fixed). */
export async function updateShipping(db: Db, opts: { actor: Actor; id: string; input: ShippingInput; ip?: string }): Promise<PaymentChange> {
  return db.transaction(async (tx) => {
    const row = await lockPayment(tx, opts.id, paymentScope(opts.actor));
    if (row.paymentStatus !== 'draft') throw conflict(messages.payments.notDraft);
    if (row.shippingCarrier === opts.input.shippingCarrier && row.shippingCost === opts.input.shippingCost)
      return { payment: await view(tx, row), auctionIds: [] };
    const answer = await save(
      tx,
      row,
      { shippingCarrier: opts.input.shippingCarrier, shippingCost: opts.input.shippingCost },
      {
        actorId: opts.actor.id,
        action: 'payment.shipping',
        before: { shippingCarrier: row.shippingCarrier, shippingCost: row.shippingCost },
        after: (a) => ({ shippingCarrier: a.shippingCarrier, shippingCost: a.shippingCost }),
        ip: opts.ip,
      },
    );
    return { payment: answer, auctionIds: [] };
  });
}

/**
 * POST /api/payments/{id}/finalize: the draft becomes pending with a payment link. The payment row
 * stays locked while the provider makes the checkout, so a second click waits and then answers the
 * same link; the provider call carries the payment id as its idempotency key besides. What the
 * checkout needs from elsewhere (the payer's e-mail, the seller's account) is read before the
 * transaction: PGlite runs one transaction at a time, and a read outside it would wait for it.
 */
export async function finalize<Extra>(
  db: Db,
  opts: {
    actor: Actor;
    id: string;
    /** Reads what the checkout needs about the winner and the auctions' seller (whose own account is used when connected). */
    prepare: (p: { winnerId: string; sellerId: string | null }) => Promise<Extra>;
    checkout: (
      input: Omit<CheckoutInput, 'seller' | 'payer'> & { payerName: string },
      extra: Extra,
    ) => Promise<Checkout & { provider: 'sandbox' | 'mercadopago'; collectedBySeller: boolean }>;
    ip?: string;
  },
): Promise<PaymentChange & { link: string }> {
  const scope = paymentScope(opts.actor);
  const [peek] = await db
    .select({ winnerId: payments.winnerId, sellerId: payments.sellerId, companyId: payments.companyId })
    .from(payments)
    .where(eq(payments.id, opts.id));
  if (!peek || !isInScope(scope, peek)) throw notFound();
  const extra = await opts.prepare(peek);
  return db.transaction(async (tx) => {
    const row = await lockPayment(tx, opts.id, scope);
    if (row.paymentStatus === 'pending' && row.paymentLink) return { payment: await view(tx, row), auctionIds: [], link: row.paymentLink };
    const moved = applyPaymentEvent(machineState(row), { type: 'finalize' });
    if (!moved.ok) throw conflict(REFUSALS[moved.reason]);
    const before = await view(tx, row);
    if (before.wonItems.length === 0) throw conflict(messages.payments.noItems);
    if (!hasShipping(row)) throw new AppError('VALIDATION', messages.payments.shippingRequired, { shippingCarrier: messages.payments.shippingRequired });
    const checkout = await opts.checkout(
      {
        paymentId: row.id,
        items: before.wonItems,
        shippingCarrier: row.shippingCarrier,
        shippingCost: row.shippingCost,
        grandTotal: before.grandTotal,
        payerName: row.winnerName,
      },
      extra,
    );
    const answer = await save(
      tx,
      row,
      {
        paymentStatus: 'pending',
        paymentLink: checkout.url,
        mpPreferenceId: checkout.preferenceId,
        linkExpiresAt: checkout.expiresAt,
        provider: checkout.provider,
        collectedBySeller: checkout.collectedBySeller,
      },
      { actorId: opts.actor.id, action: 'payment.finalize', before, ip: opts.ip },
    );
    return { payment: answer, auctionIds: answer.auctionIds, link: checkout.url };
  });
}

function machineState(row: PaymentRow): PaymentMachineState {
  return { paymentStatus: row.paymentStatus, payoutStatus: row.payoutStatus, flagged: row.flagged, providerStatus: row.providerStatus };
}

/** Cancel, request payout, mark paid out: one event of the state machine on a locked payment. */
async function transition(
  db: Db,
  opts: { actor: Actor; id: string; event: PaymentEvent; action: string; ip?: string; check?: (row: PaymentRow) => void },
): Promise<PaymentChange> {
  return db.transaction(async (tx) => {
    const row = await lockPayment(tx, opts.id, paymentScope(opts.actor));
    opts.check?.(row);
    const moved = applyPaymentEvent(machineState(row), opts.event);
    if (!moved.ok) throw conflict(REFUSALS[moved.reason]);
    const before = await view(tx, row);
    const now = new Date();
    const next = moved.state;
    const answer = await save(
      tx,
      row,
      {
        paymentStatus: next.paymentStatus,
        payoutStatus: next.payoutStatus,
        ...(next.paymentStatus === 'canceled' && row.paymentStatus !== 'canceled' ? { canceledAt: now } : {}),
        ...(next.payoutStatus === 'requested' && row.payoutStatus !== 'requested' ? { payoutRequestedAt: now } : {}),
        ...(next.payoutStatus === 'paid_out' && row.payoutStatus !== 'paid_out' ? { paidOutAt: now } : {}),
      },
      { actorId: opts.actor.id, action: opts.action, before, ip: opts.ip },
    );
    return { payment: answer, auctionIds: row.paymentStatus !== next.paymentStatus ? answer.auctionIds : [] };
  });
}

/** POST /api/payments/{id}/cancel: a draft or pending payment ends and its auctions are billable again. */
export function cancelPayment(db: Db, opts: { actor: Actor; id: string; ip?: string }): Promise<PaymentChange> {
  return transition(db, { ...opts, event: { type: 'cancel' }, action: 'payment.cancel' });
}

/** POST /api/payments/{id}/request-payout: the seller asks the platform for a paid payment's money. */
export function requestPayout(db: Db, opts: { actor: Actor; id: string; ip?: string }): Promise<PaymentChange> {
  return transition(db, {
    ...opts,
    event: { type: 'requestPayout' },
    action: 'payment.requestPayout',
    check: (row) => {
      if (row.collectedBySeller) throw conflict(messages.payments.payoutNotDue);
    },
  });
}

/** POST /api/payments/{id}/mark-paid-out: a platform admin records that the seller was paid. */
export function markPaidOut(db: Db, opts: { actor: Actor; id: string; ip?: string }): Promise<PaymentChange> {
  if (!isAdmin(opts.actor.roles) || opts.actor.profileCompanyId) throw new AppError('FORBIDDEN', messages.payments.platformAdminOnly);
  return transition(db, {
    ...opts,
    event: { type: 'markPaidOut' },
    action: 'payment.markPaidOut',
    check: (row) => {
      if (row.collectedBySeller) throw conflict(messages.payments.payoutNotDue);
    },
  });
}

// ── What the provider says ──────────────────────────────────────────────────

/**
 * Applies the provider's record of a payment (fetched after a verified webhook). Idempotent: the
 * same provider payment and status change nothing twice. Safe out of order: an older provider
 * change than the one applied is ignored, and the state machine never moves a paid payment back.
 * An approval for less than the grand total does not pay it: it is flagged for someone to look.
 */
export async function applyProviderPayment(
  db: Db,
  opts: { provider: 'sandbox' | 'mercadopago'; record: ProviderPayment },
): Promise<{ change: PaymentChange | null; outcome: 'applied' | 'unchanged' | 'stale' | 'unknown' }> {
  const { record } = opts;
  const paymentId = record.externalReference;
  if (!isUuid(paymentId)) return { change: null, outcome: 'unknown' };
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(payments).where(eq(payments.id, paymentId)).for('update');
    if (!row) return { change: null, outcome: 'unknown' as const };
    const sameRecord = row.mpPaymentId === record.id;
    if (sameRecord && row.providerUpdatedAt && record.updatedAt && record.updatedAt < row.providerUpdatedAt) return { change: null, outcome: 'stale' as const };
    if (sameRecord && row.providerStatus === record.status && (!record.updatedAt || +record.updatedAt === +(row.providerUpdatedAt ?? 0))) {
      return { change: null, outcome: 'unchanged' as const };
    }
    // A paid payment keeps the provider payment that paid it; another attempt's news is only recorded.
    if (row.paymentStatus === 'paid' && row.mpPaymentId && !sameRecord) {
      if (record.status !== 'approved') return { change: null, outcome: 'stale' as const };
    }
    const grand = row.totalAmount + row.shippingCost;
    const short = record.status === 'approved' && record.amount !== null && record.amount < grand;
    const moved = applyPaymentEvent(machineState(row), { type: 'provider', status: short ? 'pending' : record.status });
    if (!moved.ok) return { change: null, outcome: 'unchanged' as const };
    const next = moved.state;
    const becamePaid = row.paymentStatus !== 'paid' && next.paymentStatus === 'paid';
    const before = await view(tx, row);
    const answer = await save(
      tx,
      row,
      {
        paymentStatus: next.paymentStatus,
        providerStatus: short ? 'approved' : next.providerStatus,
        flagged: next.flagged || short,
        webhookAt: new Date(),
        providerUpdatedAt: record.updatedAt ?? new Date(),
        ...(row.paymentStatus !== 'paid' || sameRecord ? { mpPaymentId: record.id } : {}),
        ...(becamePaid ? { paidAt: new Date() } : {}),
      },
      {
        actorId: null,
        action: `payment.provider.${record.status}`,
        before: { paymentStatus: before.paymentStatus, providerStatus: before.providerStatus, flagged: before.flagged },
        after: (a) => ({
          paymentStatus: a.paymentStatus,
          providerStatus: a.providerStatus,
          flagged: a.flagged,
          providerPaymentId: record.id,
          amount: record.amount,
        }),
      },
    );
    return { change: { payment: answer, auctionIds: becamePaid ? answer.auctionIds : [] }, outcome: 'applied' as const };
  });
}

/** The public checkout of the sandbox (GET /api/pay/{id}): what the buyer is asked to pay. */
export async function getCheckout(db: Db, id: string): Promise<PaymentView | null> {
  if (!isUuid(id)) return null;
  const [row] = await db.select().from(payments).where(eq(payments.id, id));
  return row ? view(db, row) : null;
}
