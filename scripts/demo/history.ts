import { eq } from 'drizzle-orm';
import type { Db } from '../../src/server/db/connect.js';
import { auctions, bids, paymentItems, payments } from '../../src/server/db/schema.js';
import { refreshAuctionSearchText } from '../../src/server/reads/search-text.js';
import type { SeededPerson } from './accounts.js';
import { COMPANIES } from './people.js';
import type { PlannedAuction, PlannedPayment } from './plan.js';

const HOUR = 3_600_000;

function person(people: Map<string, SeededPerson>, key: string): SeededPerson {
  const found = people.get(key);
  if (!found) throw new Error(`unknown demo person ${key}`);
  return found;
}

/**
 * Gives the listings their past: creation dates spread over the last weeks, end times relative
 * to `now`, the bids (bid_count and current_price kept in step), and for ended auctions the
 * close as the bidding engine records it: status 'ended', closedAt, and with bids the top bidder
 * as winner with the contact details of their profile. Returns the ids whose winner changed.
 */
export async function writeHistory(
  db: Db,
  opts: { auctions: PlannedAuction[]; ids: string[]; people: Map<string, SeededPerson>; now: number },
): Promise<{ bids: number; winnerIds: string[] }> {
  const { now } = opts;
  const at = (offset: number) => new Date(now + offset);
  const winnerIds: string[] = [];
  let bidCount = 0;
  await db.transaction(async (tx) => {
    const bidRows: (typeof bids.$inferInsert)[] = [];
    for (const plan of opts.auctions) {
      const id = opts.ids[plan.index] as string;
      const top = plan.bids[plan.bids.length - 1];
      const isEnded = plan.kind === 'ended';
      const winner = isEnded && top ? person(opts.people, top.bidderKey) : null;
      const closedAt = isEnded && plan.endTime !== null ? at(plan.endTime + 1000) : null;
      const lastActivity = closedAt ?? (top ? at(top.at) : at(plan.createdAt));
      await tx
        .update(auctions)
        .set({
          createdAt: at(plan.createdAt),
          updatedAt: lastActivity,
          endTime: plan.endTime === null ? null : at(plan.endTime),
          status: isEnded ? 'ended' : plan.kind === 'active' ? 'active' : 'pending',
          currentPrice: top?.amount ?? null,
          bidCount: plan.bids.length,
          // The engine's leader: the top bidder, whose maximum is their last bid.
          leaderId: top ? person(opts.people, top.bidderKey).id : null,
          leaderMax: top?.amount ?? null,
          closedAt,
          currentWinnerId: winner?.id ?? null,
          currentWinnerName: winner?.displayName ?? null,
          winnerEmail: winner?.email ?? null,
          winnerWhatsapp: winner?.whatsapp ?? null,
          version: 1 + plan.bids.length + (closedAt ? 1 : 0),
        })
        .where(eq(auctions.id, id));
      if (winner) winnerIds.push(id);
      for (const [i, bid] of plan.bids.entries()) {
        const bidder = person(opts.people, bid.bidderKey);
        bidRows.push({ auctionId: id, bidderId: bidder.id, bidderName: bidder.displayName, seq: i + 1, amount: bid.amount, createdAt: at(bid.at) });
      }
    }
    for (let i = 0; i < bidRows.length; i += 500) await tx.insert(bids).values(bidRows.slice(i, i + 500));
    bidCount = bidRows.length;
  });
  // The winner's name is searchable.
  await refreshAuctionSearchText(db, { auctionIds: winnerIds });
  return { bids: bidCount, winnerIds };
}

/**
 * Paid orders, as the payment webhook leaves them: the payment with status 'paid' and one item
 * per won auction at its final price; the items carry the same status (a composite foreign key
 * keeps them in step). Won auctions in no payment are the 'Pendientes'.
 */
export async function writePayments(
  db: Db,
  opts: { payments: PlannedPayment[]; auctions: PlannedAuction[]; ids: string[]; people: Map<string, SeededPerson>; now: number },
): Promise<number> {
  const at = (offset: number) => new Date(opts.now + offset);
  await db.transaction(async (tx) => {
    for (const plan of opts.payments) {
      const winner = person(opts.people, plan.winnerKey);
      const won = plan.auctionIndexes.map((i) => opts.auctions[i] as PlannedAuction);
      const items = won.map((a) => ({ auctionId: opts.ids[a.index] as string, auctionName: a.name, amount: a.bids[a.bids.length - 1]?.amount ?? 0 }));
      const paidAt = at(plan.paidAt);
      const linkCreatedAt = new Date(paidAt.getTime() - 3 * HOUR);
      const [row] = await tx
        .insert(payments)
        .values({
          winnerId: winner.id,
          winnerName: winner.displayName,
          winnerWhatsapp: winner.whatsapp,
          sellerId: person(opts.people, plan.sellerKey).id,
          companyId: plan.companyId,
          companyName: COMPANIES.find((c) => c.companyId === plan.companyId)?.companyName ?? null,
          totalAmount: items.reduce((sum, item) => sum + item.amount, 0),
          shippingCarrier: plan.shippingCarrier,
          shippingCost: plan.shippingCost,
          paymentStatus: 'paid',
          provider: 'sandbox',
          linkExpiresAt: new Date(linkCreatedAt.getTime() + 72 * HOUR),
          paidAt,
          payoutStatus: plan.payoutStatus,
          payoutRequestedAt: plan.payoutStatus === 'none' ? null : new Date(Math.min(paidAt.getTime() + HOUR, opts.now - 120_000)),
          paidOutAt: plan.payoutStatus === 'paid_out' ? new Date(Math.min(paidAt.getTime() + 20 * HOUR, opts.now - 60_000)) : null,
          createdBy: person(opts.people, plan.sellerKey).id,
          createdAt: linkCreatedAt,
          updatedAt: paidAt,
        })
        .returning({ id: payments.id });
      if (!row) throw new Error('payment insert returned nothing');
      await tx.insert(paymentItems).values(items.map((item) => ({ ...item, paymentId: row.id, paymentStatus: 'paid' as const, createdAt: linkCreatedAt })));
    }
  });
  return opts.payments.length;
}
