import { and, count, eq, like, ne } from 'drizzle-orm';
import type { ChatSystemEvent } from '../../../domain/chat.js';
import type { Db } from '../../db/connect.js';
import { auctions, chatMessages, liveLots, liveSessions } from '../../db/schema.js';
import type { DomainEventOf, Publisher } from '../../realtime/publisher.js';
import { chatLine } from './events.js';
import type { ChatPresenter, ChatRow } from './presenters.js';
import { holdLineOrder } from './queries.js';

/**
 * The show's own events as chat lines: a lot goes on the block (its timer first started), sold to a
 * masked bidder for a price, unsold. Each subscriber runs on the instance that published the event;
 * a line's key (its event, its lot and the lot's round) is unique per session, so each line is
 * written once even if two instances hear of it, and a timer moved later does not open the lot again.
 * An ended show's chat is its replay: nothing is added to it.
 */

async function writeSystemLine(db: Db, opts: { sessionId: string; key: string; system: ChatSystemEvent }): Promise<ChatRow | null> {
  const [session] = await db
    .select({ id: liveSessions.id })
    .from(liveSessions)
    .where(and(eq(liveSessions.id, opts.sessionId), ne(liveSessions.status, 'ended')));
  if (!session) return null;
  return db.transaction(async (tx) => {
    await holdLineOrder(tx, session.id);
    const [row] = await tx
      .insert(chatMessages)
      .values({ sessionId: session.id, kind: 'system', text: opts.system.auctionName, system: opts.system, systemKey: opts.key })
      .onConflictDoNothing({ target: [chatMessages.sessionId, chatMessages.systemKey] })
      .returning();
    return row ?? null;
  });
}

/** How many times the lot ended unsold in this session: a re-run lot goes on the block once per round. */
async function unsoldRounds(db: Db, sessionId: string, lotId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(chatMessages)
    .where(and(eq(chatMessages.sessionId, sessionId), like(chatMessages.systemKey, `lotUnsold:${lotId}:%`)));
  return Number(row?.n ?? 0);
}

/** A lot's timer was set: the lot goes on the block, unless it already is in this round. Null when nothing was written. */
export async function writeLotOpened(db: Db, event: DomainEventOf<'lotTimerSet'>): Promise<ChatRow | null> {
  const { timer, auction } = event;
  const round = await unsoldRounds(db, timer.sessionId, timer.lotId);
  const system: ChatSystemEvent = { event: 'lotOpened', lotId: timer.lotId, auctionName: auction.name, startingPrice: auction.startingPrice };
  return writeSystemLine(db, { sessionId: timer.sessionId, key: `lotOpened:${timer.lotId}:${round}`, system });
}

/** A lot finished: sold (to the masked winner, for the price) or unsold. Null when nothing was written. */
export async function writeLotFinished(db: Db, event: DomainEventOf<'lotFinished'>): Promise<ChatRow | null> {
  const { sessionId, lotId, state } = event.finished;
  // An auction that closed while its lot waited in the queue sold (or not) outside the show: no line in its chat.
  if (event.finished.offered === false) return null;
  const [lot] = await db.select({ name: auctions.name }).from(liveLots).innerJoin(auctions, eq(auctions.id, liveLots.auctionId)).where(eq(liveLots.id, lotId));
  if (!lot) return null;
  // The state is already presented: the winner's name masked (maskName), never their id.
  const system: ChatSystemEvent =
    state.winnerName !== null
      ? { event: 'lotSold', lotId, auctionName: lot.name, price: state.currentPrice ?? 0, winnerName: state.winnerName }
      : { event: 'lotUnsold', lotId, auctionName: lot.name };
  // Sold happens once; unsold once per run of the lot (each run ends at its own time).
  const key = system.event === 'lotSold' ? `lotSold:${lotId}` : `lotUnsold:${lotId}:${state.endTime ?? 0}`;
  return writeSystemLine(db, { sessionId, key, system });
}

type SystemLineDeps = { db: Db; publisher: Pick<Publisher, 'publish'>; present: ChatPresenter };

/** Each system line written is published as any line is. */
async function announce(deps: SystemLineDeps, line: ChatRow | null): Promise<void> {
  if (line) await deps.publisher.publish([chatLine(deps.present.message(line), null)]);
}

/** A lot's timer was set: its "on the block" line, when it is new. */
export async function announceLotOpened(deps: SystemLineDeps, event: DomainEventOf<'lotTimerSet'>): Promise<void> {
  await announce(deps, await writeLotOpened(deps.db, event));
}

/** A lot finished: its "¡Vendido…!" or unsold line. */
export async function announceLotFinished(deps: SystemLineDeps, event: DomainEventOf<'lotFinished'>): Promise<void> {
  await announce(deps, await writeLotFinished(deps.db, event));
}
