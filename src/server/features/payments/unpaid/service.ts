import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { ExpiredLotDecision } from '../../../../domain/after-show.js';
import { applyPaymentEvent } from '../../../../domain/payments.js';
import { shippingFor } from '../../../../domain/show-billing.js';
import { mayDecide, runnerUpOf } from '../../../../domain/unpaid.js';
import { recordAudit } from '../../../audit.js';
import type { Db, Tx } from '../../../db/connect.js';
import {
  auctions,
  bidKeys,
  bids,
  buyerStrikes,
  companyBlocks,
  expiredLots,
  HOLDING_PAYMENT_STATUSES,
  liveSessions,
  paymentItems,
  payments,
  secondChanceOffers,
  userProfiles,
  users,
} from '../../../db/schema.js';
import { AppError } from '../../../http/errors.js';
import type { Acting } from '../../../http/request-context.js';
import { messages } from '../../../messages.js';
import { blockReason } from '../../../reads/buyer-blocks.js';
import type { BidPresenter } from '../../../realtime/bid-presenter.js';
import type { DomainEvent } from '../../../realtime/publisher.js';
import { addLot } from '../../live/index.js';
import { finalize, type ReminderDeps } from '../bills/checkout.js';
import { paymentChanged } from '../bills/events.js';
import { type Actor, paymentScope } from '../bills/policies.js';
import type { PaymentRow } from '../bills/presenters.js';
import { view } from '../bills/queries.js';
import { createDraft, lockPayment, save } from '../bills/service.js';
import { machineState } from '../bills/transitions.js';
import { type ExpiryDeps, expireLink } from './expiry.js';
import { bidLines, clearOfferWinner, passedBuyers, standingChanged, syncOffers } from './queries.js';

/**
 * The seller's choice for each lot of an expired bill (Segunda oportunidad, another show, release),
 * the runner-up's answer, and lifting a buyer's strikes. Every change is one transaction that locks
 * the expired bill, then the lot's row, then the auction; calls to the payment provider happen
 * after the commit (payments/checkout.ts).
 */

const conflict = (message: string) => new AppError('CONFLICT', message);
const lotNotFound = () => new AppError('NOT_FOUND', messages.unpaid.lotNotFound);

export interface Decided {
  decision: ExpiredLotDecision;
  events: DomainEvent[];
  /** Segunda oportunidad: the runner-up's bill and its link. */
  paymentId?: string;
  link?: string;
}

type Lot = typeof expiredLots.$inferSelect;

/** The expired bill (in scope) and its lot, locked; the lot's last offer; whether the choice is still open. */
async function lockLot(tx: Tx, actor: Actor, paymentId: string, auctionId: string) {
  await syncOffers(tx);
  const bill = await lockPayment(tx, paymentId, paymentScope(actor)).catch(() => {
    throw lotNotFound();
  });
  const [lot] = await tx
    .select()
    .from(expiredLots)
    .where(and(eq(expiredLots.paymentId, paymentId), eq(expiredLots.auctionId, auctionId)))
    .for('update');
  if (!lot) throw lotNotFound();
  const [offer] = await tx
    .select()
    .from(secondChanceOffers)
    .where(and(eq(secondChanceOffers.expiredPaymentId, paymentId), eq(secondChanceOffers.auctionId, auctionId)))
    .orderBy(desc(secondChanceOffers.createdAt))
    .limit(1);
  return { bill, lot, offer: offer ?? null, open: mayDecide(lot.decision, offer?.status ?? null) };
}

/** The auction, locked, and refused when another bill holds it or it was paid. */
async function lockFreeAuction(tx: Tx, auctionId: string) {
  const [auction] = await tx.select().from(auctions).where(eq(auctions.id, auctionId)).for('update');
  if (!auction) throw lotNotFound();
  const held = await tx
    .select({ id: paymentItems.paymentId })
    .from(paymentItems)
    .where(and(eq(paymentItems.auctionId, auctionId), inArray(paymentItems.paymentStatus, [...HOLDING_PAYMENT_STATUSES])))
    .limit(1);
  if (held.length || auction.isPaid) throw conflict(messages.unpaid.lotBilled);
  return auction;
}

async function decide(tx: Tx, opts: Acting<Actor>, lot: Lot, decision: ExpiredLotDecision, after: Record<string, unknown>) {
  await tx
    .update(expiredLots)
    .set({ decision, decidedAt: new Date(), decidedBy: opts.actor.id })
    .where(and(eq(expiredLots.paymentId, lot.paymentId), eq(expiredLots.auctionId, lot.auctionId)));
  await recordAudit(tx, {
    by: opts,
    action: 'unpaid.decide',
    entityType: 'payment',
    entityId: lot.paymentId,
    before: { auctionId: lot.auctionId, decision: lot.decision },
    after: { auctionId: lot.auctionId, decision, ...after },
  });
}

/**
 * The shipping of a Segunda oportunidad's bill: the show's rules for its own one lot (a lot of a
 * two-lot bill ships as one lot: $150, not the two lots' $200). A bill of no show, or of a show
 * without rules, keeps the expired bill's shipping, which the seller set by hand for it.
 */
async function secondChanceShipping(tx: Tx, bill: PaymentRow, amount: number): Promise<{ shippingCarrier: string | null; shippingCost: number }> {
  const [show] = bill.sessionId ? await tx.select({ rules: liveSessions.shippingRules }).from(liveSessions).where(eq(liveSessions.id, bill.sessionId)) : [];
  if (show?.rules) return shippingFor(show.rules, [{ amount }]);
  return { shippingCarrier: bill.shippingCarrier, shippingCost: bill.shippingCost };
}

/**
 * Segunda oportunidad: the lot is offered to its runner-up at their own highest bid. The auction's
 * winner becomes the runner-up (so billing's checks hold: ended, won by the bill's buyer), a draft
 * is made in the expired bill's show with the shipping of its own lot (secondChanceShipping), and
 * then finalized with the provider, outside the transaction, so the runner-up gets a link and a
 * deadline. A retry after the provider failed finalizes the same draft.
 */
export async function offerSecondChance(db: Db, opts: Acting<Actor> & ExpiryDeps & ReminderDeps & { paymentId: string; auctionId: string }): Promise<Decided> {
  const { provider, accounts, log, isCloudOn, paymentId, auctionId, ...acting } = opts;
  const made = await db.transaction(async (tx) => {
    const { bill, lot, offer, open } = await lockLot(tx, acting.actor, paymentId, auctionId);
    if (!open) {
      // The same choice again while its bill waits for its link: finish it.
      if (lot.decision === 'secondChance' && offer?.status === 'offered' && offer.paymentId) return { draftId: offer.paymentId, events: [] };
      throw conflict(messages.unpaid.alreadyDecided);
    }
    const auction = await lockFreeAuction(tx, auctionId);
    const passed = (await passedBuyers(tx, [paymentId])).get(`${paymentId}:${auctionId}`) ?? [];
    const runnerUp = runnerUpOf((await bidLines(tx, [auctionId])).get(auctionId) ?? [], bill.winnerId, passed);
    if (!runnerUp) throw conflict(messages.unpaid.noRunnerUp);
    if (await blockReason(tx, auction.companyId, runnerUp.userId)) throw conflict(messages.unpaid.runnerUpBlocked);
    const [contact] = await tx
      .select({ email: users.email, whatsapp: userProfiles.whatsapp })
      .from(users)
      .leftJoin(userProfiles, eq(userProfiles.userId, users.id))
      .where(eq(users.id, runnerUp.userId));
    await tx
      .update(auctions)
      .set({
        currentWinnerId: runnerUp.userId,
        currentWinnerName: runnerUp.name,
        currentPrice: runnerUp.amount,
        winnerEmail: contact?.email ?? null,
        winnerWhatsapp: contact?.whatsapp ?? null,
        version: sql`${auctions.version} + 1`,
        updatedAt: new Date(),
      })
      .where(eq(auctions.id, auctionId));
    const draft = await createDraft(tx, { ...acting, winnerId: runnerUp.userId, auctionIds: [auctionId], sessionId: bill.sessionId, deciding: paymentId });
    await tx
      .update(payments)
      .set(await secondChanceShipping(tx, bill, runnerUp.amount))
      .where(eq(payments.id, draft.payment.id));
    const [created] = await tx
      .insert(secondChanceOffers)
      .values({
        auctionId,
        expiredPaymentId: paymentId,
        buyerId: runnerUp.userId,
        amount: runnerUp.amount,
        paymentId: draft.payment.id,
        createdBy: acting.actor.id,
      })
      .returning({ id: secondChanceOffers.id });
    await decide(tx, acting, lot, 'secondChance', {
      offerId: created?.id,
      runnerUpId: runnerUp.userId,
      amount: runnerUp.amount,
      previousWinnerId: auction.currentWinnerId,
      previousPrice: auction.currentPrice,
    });
    return { draftId: draft.payment.id, events: draft.events };
  });
  const done = await finalize(db, { ...acting, provider, accounts, isCloudOn, ...(log ? { log } : {}), id: made.draftId });
  return { decision: 'secondChance', events: [...made.events, ...done.events], paymentId: made.draftId, link: done.link };
}

/**
 * Llevar a otro show: the lot becomes sellable again (pending, no end, no winner, no close) and is
 * added as the last lot of a scheduled show of the bill's company, through the Live Hub's own
 * addLot (in this transaction). Its bids are cleared, since the new show starts from the starting
 * price and the engine numbers an auction's bids from 1; what they were stays in the audit log.
 */
export async function sendToFutureShow(
  db: Db,
  opts: Acting<Actor> & { present: BidPresenter; paymentId: string; auctionId: string; sessionId: string },
): Promise<Decided> {
  const { present, paymentId, auctionId, sessionId, ...acting } = opts;
  return db.transaction(async (tx) => {
    const { bill, lot, open } = await lockLot(tx, acting.actor, paymentId, auctionId);
    if (!open) {
      if (lot.decision === 'futureShow') return { decision: 'futureShow' as const, events: [] };
      throw conflict(messages.unpaid.alreadyDecided);
    }
    const [session] = await tx
      .select({ id: liveSessions.id })
      .from(liveSessions)
      .where(
        and(
          eq(liveSessions.id, sessionId),
          eq(liveSessions.companyId, bill.companyId),
          eq(liveSessions.status, 'scheduled'),
          eq(liveSessions.rehearsal, false),
        ),
      );
    if (!session) throw conflict(messages.unpaid.sessionNotScheduled);
    const auction = await lockFreeAuction(tx, auctionId);
    const history = await tx
      .select({ bidderId: bids.bidderId, amount: bids.amount, seq: bids.seq })
      .from(bids)
      .where(eq(bids.auctionId, auctionId))
      .orderBy(bids.seq);
    await tx.delete(bidKeys).where(eq(bidKeys.auctionId, auctionId));
    await tx.delete(bids).where(eq(bids.auctionId, auctionId));
    await tx
      .update(auctions)
      .set({
        status: 'pending',
        endTime: null,
        closedAt: null,
        currentPrice: null,
        currentWinnerId: null,
        currentWinnerName: null,
        winnerEmail: null,
        winnerWhatsapp: null,
        leaderId: null,
        leaderMax: null,
        bidCount: 0,
        version: sql`${auctions.version} + 1`,
        updatedAt: new Date(),
      })
      .where(eq(auctions.id, auctionId));
    const added = await addLot(tx, { ...acting, present, sessionId, auctionId });
    await decide(tx, acting, lot, 'futureShow', {
      sessionId,
      lotId: added.lotId,
      previous: { status: auction.status, winnerId: auction.currentWinnerId, price: auction.currentPrice, bids: history },
    });
    return { decision: 'futureShow' as const, events: added.events };
  });
}

/** Liberar: the lot stays ended with no winner; the item is free to relist by hand. */
export async function releaseLot(db: Db, opts: Acting<Actor> & { paymentId: string; auctionId: string }): Promise<Decided> {
  const { paymentId, auctionId, ...acting } = opts;
  return db.transaction(async (tx) => {
    const { lot, open } = await lockLot(tx, acting.actor, paymentId, auctionId);
    if (!open) {
      if (lot.decision === 'released') return { decision: 'released' as const, events: [] };
      throw conflict(messages.unpaid.alreadyDecided);
    }
    const auction = await lockFreeAuction(tx, auctionId);
    await tx
      .update(auctions)
      .set({
        currentWinnerId: null,
        currentWinnerName: null,
        winnerEmail: null,
        winnerWhatsapp: null,
        version: sql`${auctions.version} + 1`,
        updatedAt: new Date(),
      })
      .where(eq(auctions.id, auctionId));
    await decide(tx, acting, lot, 'released', { previousWinnerId: auction.currentWinnerId });
    return { decision: 'released' as const, events: [] };
  });
}

/** The runner-up's offer, for its own buyer only (anyone else: not found). */
async function lockOffer(tx: Tx, offerId: string, buyerId: string) {
  const [offer] = await tx
    .select()
    .from(secondChanceOffers)
    .where(and(eq(secondChanceOffers.id, offerId), eq(secondChanceOffers.buyerId, buyerId)))
    .for('update');
  if (!offer) throw new AppError('NOT_FOUND', messages.unpaid.offerNotFound);
  return offer;
}

/** POST /api/second-chance/{offerId}/accept: the runner-up takes the offer; answers its payment link. */
export async function acceptOffer(
  db: Db,
  opts: { actor: { id: string }; offerId: string },
): Promise<{ paymentLinkUrl: string | null; paymentId: string | null }> {
  return db.transaction(async (tx) => {
    await syncOffers(tx);
    const offer = await lockOffer(tx, opts.offerId, opts.actor.id);
    if (offer.status !== 'offered') throw conflict(messages.unpaid.offerClosed);
    const [bill] = offer.paymentId ? await tx.select({ link: payments.paymentLink }).from(payments).where(eq(payments.id, offer.paymentId)) : [];
    return { paymentLinkUrl: bill?.link ?? null, paymentId: offer.paymentId };
  });
}

/** The declined offer's bill is canceled (when it still can be), for its link to be expired after the commit. */
async function cancelOfferBill(tx: Tx, acting: Acting<{ id: string }>, paymentId: string | null, now: Date) {
  if (!paymentId) return null;
  const [row] = await tx.select().from(payments).where(eq(payments.id, paymentId)).for('update');
  if (!row) return null;
  const moved = applyPaymentEvent(machineState(row), { type: 'cancel' });
  if (!moved.ok) return null;
  const before = await view(tx, row as PaymentRow);
  const payment = await save(
    tx,
    row as PaymentRow,
    { paymentStatus: moved.state.paymentStatus, canceledAt: now },
    { by: acting, action: 'payment.cancel', before },
  );
  return { payment, provider: row.provider, preferenceId: row.mpPreferenceId };
}

/** POST /api/second-chance/{offerId}/decline: the offer ends and its bill is canceled; then its link expires at the provider. */
export async function declineOffer(db: Db, opts: Acting<{ id: string }> & ExpiryDeps & { offerId: string }): Promise<{ events: DomainEvent[] }> {
  const { provider, accounts, log, offerId, ...acting } = opts;
  const done = await db.transaction(async (tx) => {
    await syncOffers(tx);
    const offer = await lockOffer(tx, offerId, acting.actor.id);
    if (offer.status !== 'offered') throw conflict(messages.unpaid.offerClosed);
    const now = new Date();
    await tx.update(secondChanceOffers).set({ status: 'declined', answeredAt: now }).where(eq(secondChanceOffers.id, offer.id));
    await recordAudit(tx, {
      by: acting,
      action: 'unpaid.second_chance.decline',
      entityType: 'second_chance_offer',
      entityId: offer.id,
      before: { status: 'offered' },
      after: { status: 'declined' },
    });
    const canceled = await cancelOfferBill(tx, acting, offer.paymentId, now);
    // The runner-up let it go: the lot has no winner, and waits for the seller's choice again.
    await clearOfferWinner(tx, { auctionId: offer.auctionId, buyerId: offer.buyerId });
    return canceled;
  });
  if (!done) return { events: [] };
  await expireLink(db, { provider, accounts, ...(log ? { log } : {}) }, done.payment, done);
  return { events: [paymentChanged({ payment: done.payment, auctionIds: done.payment.auctionIds })] };
}

/** POST /api/unpaid/strikes/{userId}/lift: the company's strikes on the buyer are lifted and a strikes block removed. */
export async function liftStrikes(db: Db, opts: Acting<Actor> & { userId: string }): Promise<{ events: DomainEvent[] }> {
  const companyId = opts.actor.companyId;
  if (!companyId) throw new AppError('NOT_FOUND', messages.unpaid.notStruck);
  return db.transaction(async (tx) => {
    const lifted = await tx
      .update(buyerStrikes)
      .set({ liftedAt: new Date(), liftedBy: opts.actor.id })
      .where(and(eq(buyerStrikes.companyId, companyId), eq(buyerStrikes.userId, opts.userId), isNull(buyerStrikes.liftedAt)))
      .returning({ id: buyerStrikes.id });
    const unblocked = await tx
      .delete(companyBlocks)
      .where(and(eq(companyBlocks.companyId, companyId), eq(companyBlocks.userId, opts.userId), eq(companyBlocks.reason, 'strikes')))
      .returning({ userId: companyBlocks.userId });
    if (lifted.length === 0 && unblocked.length === 0) throw new AppError('NOT_FOUND', messages.unpaid.notStruck);
    await recordAudit(tx, {
      by: opts,
      action: 'unpaid.strikes.lift',
      entityType: 'company',
      entityId: companyId,
      before: { userId: opts.userId, strikes: lifted.length, blocked: unblocked.length > 0 },
      after: { userId: opts.userId, strikes: 0, blocked: false },
    });
    return { events: unblocked.length ? [standingChanged(companyId, opts.userId, false)] : [] };
  });
}
