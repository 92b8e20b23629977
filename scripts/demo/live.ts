import { DEFAULT_BIDDING_CONFIG, MEXICO_CITY_TZ } from '../../src/domain/live.js';
import { slugify } from '../../src/domain/live-public.js';
import type { Db } from '../../src/server/db/connect.js';
import { liveLots, liveSessions } from '../../src/server/db/schema.js';
import { takeRehearsalSnapshot } from '../../src/server/features/live/sessions/rehearsal-snapshot.js';
import type { SeededPerson } from './accounts.js';
import type { PlannedAuction } from './plan.js';

/** Lots per demo show: enough for a short evening, few enough to read at a glance. */
const LOTS_PER_SHOW = 8;
const SHOW_HOUR = 20;

/** The next 20:00 in Mexico City after `now` (epoch ms), so the Live Hub opens on a show to come. */
export function nextShowTime(now: number): number {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone: MEXICO_CITY_TZ, hour: 'numeric', hourCycle: 'h23', minute: 'numeric' }).formatToParts(
    new Date(now),
  );
  const hour = Number(parts.find((p) => p.type === 'hour')?.value ?? 0);
  const minute = Number(parts.find((p) => p.type === 'minute')?.value ?? 0);
  const minutesToday = (SHOW_HOUR - hour) * 60 - minute;
  const minutesAhead = minutesToday > 30 ? minutesToday : minutesToday + 24 * 60;
  // On the minute: a show starts at 20:00, not at 20:00:37.
  return Math.floor((now + minutesAhead * 60_000) / 60_000) * 60_000;
}

/** The night of a show as its title gives it, in Mexico City: 'jue 11 de jun'. */
export function showNight(at: number): string {
  return new Intl.DateTimeFormat('es-MX', { weekday: 'short', day: 'numeric', month: 'short', timeZone: MEXICO_CITY_TZ }).format(new Date(at));
}

/**
 * A demo show's title: its seller and its night ('Remate de Guadalupe · jue 11 de jun'), so two
 * sellers of one company, or one seller's two nights, never read the same in a list.
 */
export function showTitle(kind: 'Remate' | 'Ensayo', seller: Pick<SeededPerson, 'firstName'>, at: number): string {
  return `${kind} de ${seller.firstName} · ${showNight(at)}`;
}

/**
 * One scheduled live show per seller with pending auctions: tonight at 20:00 (Mexico City), titled
 * by its seller and night (showTitle), its lots being that seller's pending auctions in the order
 * they were listed. The Live Hub then has something to load, and `/live` something to list. One
 * rehearsal besides (writeRehearsal).
 */
export async function writeLiveSessions(
  db: Db,
  opts: { auctions: PlannedAuction[]; ids: string[]; people: Map<string, SeededPerson>; now: number },
): Promise<{ shows: number; rehearsals: number }> {
  const bySeller = new Map<string, number[]>();
  /** Pending auctions beyond a seller's show: the rehearsal's lots (an auction is a lot of one open session at a time). */
  const spare = new Map<string, number[]>();
  for (const a of opts.auctions) {
    if (a.kind !== 'pending') continue;
    const list = bySeller.get(a.sellerKey) ?? [];
    if (list.length < LOTS_PER_SHOW) list.push(a.index);
    else spare.set(a.sellerKey, [...(spare.get(a.sellerKey) ?? []), a.index]);
    bySeller.set(a.sellerKey, list);
  }
  // A seller with too few pending auctions for a show rehearses on them; else the longest show lends its last two.
  for (const [sellerKey, list] of bySeller) if (list.length < 3) spare.set(sellerKey, [...list, ...(spare.get(sellerKey) ?? [])]);
  if (spare.size === 0) {
    const longest = [...bySeller].sort((a, b) => b[1].length - a[1].length)[0];
    if (longest && longest[1].length >= 5) spare.set(longest[0], longest[1].splice(-2));
  }
  const scheduledAt = new Date(nextShowTime(opts.now));
  let shows = 0;
  for (const [sellerKey, indexes] of bySeller) {
    const seller = opts.people.get(sellerKey);
    if (!seller?.companyId || indexes.length < 3) continue;
    const [session] = await db
      .insert(liveSessions)
      .values({
        title: showTitle('Remate', seller, scheduledAt.getTime()),
        sellerId: seller.id,
        companyId: seller.companyId,
        sellerSlug: slugify(seller.companyName ?? seller.firstName),
        scheduledAt,
        whatsappLink: 'https://chat.whatsapp.com/DemoMartillo',
        biddingConfig: DEFAULT_BIDDING_CONFIG,
      })
      .returning({ id: liveSessions.id });
    if (!session) throw new Error('live session insert returned nothing');
    await db.insert(liveLots).values(indexes.map((index, i) => ({ sessionId: session.id, auctionId: opts.ids[index] as string, order: i + 1 })));
    shows++;
  }
  return { shows, rehearsals: await writeRehearsal(db, { ...opts, spare, scheduledAt }) };
}

const REHEARSAL_LOTS = 3;

/**
 * One rehearsal ('Ensayo'), as a seller makes before a first show: the first seller with pending
 * auctions to spare practises on up to three of them an hour before tonight's show. It is not listed in
 * /live; its auctions are copied as they are now (features/live/sessions/rehearsal-snapshot.ts), so ending it puts them back.
 */
async function writeRehearsal(
  db: Db,
  opts: { spare: Map<string, number[]>; ids: string[]; people: Map<string, SeededPerson>; scheduledAt: Date; now: number },
): Promise<number> {
  for (const [sellerKey, indexes] of opts.spare) {
    const seller = opts.people.get(sellerKey);
    if (!seller?.companyId || indexes.length === 0) continue;
    const lots = indexes.slice(0, REHEARSAL_LOTS);
    // An hour before the show, or in a few minutes when the show is sooner than that.
    const scheduledAt = Math.max(opts.scheduledAt.getTime() - 3_600_000, Math.ceil((opts.now + 5 * 60_000) / 60_000) * 60_000);
    await db.transaction(async (tx) => {
      const [session] = await tx
        .insert(liveSessions)
        .values({
          title: showTitle('Ensayo', seller, scheduledAt),
          sellerId: seller.id,
          companyId: seller.companyId as string,
          sellerSlug: slugify(`ensayo ${seller.companyName ?? seller.firstName}`),
          scheduledAt: new Date(scheduledAt),
          biddingConfig: DEFAULT_BIDDING_CONFIG,
          rehearsal: true,
        })
        .returning({ id: liveSessions.id });
      if (!session) throw new Error('rehearsal insert returned nothing');
      await tx.insert(liveLots).values(lots.map((index, i) => ({ sessionId: session.id, auctionId: opts.ids[index] as string, order: i + 1 })));
      for (const index of lots) await takeRehearsalSnapshot(tx, { sessionId: session.id, auctionId: opts.ids[index] as string });
    });
    return 1;
  }
  return 0;
}
