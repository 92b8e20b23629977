import { DEFAULT_BIDDING_CONFIG } from '../../src/domain/live.js';
import { slugify } from '../../src/domain/live-public.js';
import type { Db } from '../../src/server/db/connect.js';
import { liveLotRuns, liveLots, liveSessions, liveViewerSamples } from '../../src/server/db/schema.js';
import type { SeededPerson } from './accounts.js';
import { nextShowTime, showTitle } from './live.js';
import type { PlannedAuction, PlannedPayment } from './plan.js';

/** Lots of the demo's past show: its winners not billed yet, and one lot that did not sell. */
const PAST_LOTS = 6;
/** Minutes each lot of the past show spent on the block, and between two lots. */
const LOT_MINUTES = 3;
const GAP_MINUTES = 1;
/** The viewer count's sampling period, as the server records it during a show (payments/show-summary/sampler.ts). */
const SAMPLE_MS = 5_000;

/**
 * Last night's show (20:00 in Mexico City), ended, for the seller with the most unbilled wins: its
 * lots are that seller's ended auctions whose winners have not been billed, plus one that did not
 * sell, with the record a show leaves (each lot's time on the block, the viewers every 5 s) and
 * shipping rules set. The Live Hub's 'Resumen del show' then has charts to draw, and 'Cobrar el
 * show' buyers to bill. The viewer curve is a fixed shape, the same every run.
 */
export async function writePastShow(
  db: Db,
  opts: { auctions: PlannedAuction[]; payments: PlannedPayment[]; ids: string[]; people: Map<string, SeededPerson>; now: number },
): Promise<number> {
  const paid = new Set(opts.payments.flatMap((p) => p.auctionIndexes));
  const bySeller = new Map<string, { won: PlannedAuction[]; unsold: PlannedAuction[] }>();
  for (const a of opts.auctions) {
    if (a.kind !== 'ended' || paid.has(a.index)) continue;
    const entry = bySeller.get(a.sellerKey) ?? { won: [], unsold: [] };
    (a.bids.length > 0 ? entry.won : entry.unsold).push(a);
    bySeller.set(a.sellerKey, entry);
  }
  const [sellerKey, picked] = [...bySeller].sort((x, y) => y[1].won.length - x[1].won.length || x[0].localeCompare(y[0]))[0] ?? [];
  const seller = sellerKey ? opts.people.get(sellerKey) : undefined;
  if (!picked || !seller?.companyId || picked.won.length < 2) return 0;
  const lots = [...picked.won.slice(0, PAST_LOTS - 1), ...picked.unsold.slice(0, 1)];

  const start = nextShowTime(opts.now) - 24 * 3_600_000;
  const lotStart = (i: number) => start + 2 * 60_000 + i * (LOT_MINUTES + GAP_MINUTES) * 60_000;
  const end = lotStart(lots.length) + 60_000;
  const companyName = seller.companyName ?? seller.firstName;
  await db.transaction(async (tx) => {
    const [session] = await tx
      .insert(liveSessions)
      .values({
        title: showTitle('Remate', seller, start),
        sellerId: seller.id,
        companyId: seller.companyId as string,
        sellerSlug: slugify(companyName),
        status: 'ended',
        scheduledAt: new Date(start),
        lastStreamStart: new Date(start),
        lastStreamStop: new Date(end),
        whatsappLink: 'https://chat.whatsapp.com/DemoMartillo',
        biddingConfig: DEFAULT_BIDDING_CONFIG,
        shippingRules: { mode: 'flat', flatFee: 150, perExtraItem: 50, freeOver: 3000, pickupAddress: null },
      })
      .returning({ id: liveSessions.id });
    if (!session) throw new Error('past show insert returned nothing');
    const lotRows = await tx
      .insert(liveLots)
      .values(lots.map((a, i) => ({ sessionId: session.id, auctionId: opts.ids[a.index] as string, order: i + 1, status: 'finished' as const })))
      .returning({ id: liveLots.id, auctionId: liveLots.auctionId, order: liveLots.order });
    await tx.insert(liveLotRuns).values(
      lotRows.map((lot) => ({
        sessionId: session.id,
        lotId: lot.id,
        auctionId: lot.auctionId,
        openedAt: new Date(lotStart(lot.order - 1)),
        closedAt: new Date(lotStart(lot.order - 1) + LOT_MINUTES * 60_000),
      })),
    );
    const samples: (typeof liveViewerSamples.$inferInsert)[] = [];
    for (let at = start; at <= end; at += SAMPLE_MS) samples.push({ sessionId: session.id, at: new Date(at), viewers: viewersAt(at - start, end - start) });
    for (let i = 0; i < samples.length; i += 500) await tx.insert(liveViewerSamples).values(samples.slice(i, i + 500));
  });
  return 1;
}

/** An evening's audience: people arrive over the first minutes, peak in the middle, drift away at the end; a little ripple. */
function viewersAt(elapsed: number, length: number): number {
  const x = elapsed / length;
  const arrival = Math.min(1, x * 6);
  const leaving = x > 0.8 ? 1 - (x - 0.8) * 2.5 : 1;
  const ripple = Math.sin(elapsed / 37_000) * 4 + Math.sin(elapsed / 11_000) * 2;
  return Math.max(0, Math.round(12 + 46 * arrival * leaving + 14 * Math.sin(Math.PI * x) + ripple));
}
