import type { AppContext } from './context.js';
import type { ChatPresenter } from './features/chat/presenters.js';
import { announceLotFinished, announceLotOpened } from './features/chat/system-lines.js';
import { tellLotFinished } from './features/live/show/events.js';
import { restoreEndedRehearsal } from './features/rehearsal/rehearsal-driver.js';
import type { DomainEventOf, DomainEventType, Publisher } from './realtime/publisher.js';

/**
 * What the server does when one of its own committed events is published: the one list. Each
 * handler runs on the instance that published the event, after its delivery (realtime/publisher.ts);
 * a handler's failure is logged and its event stands. A reaction's events are published in turn,
 * so reactions chain: a close ('auctionClosed') finishes the lot ('lotFinished'), which writes the
 * chat's "¡Vendido…!" line.
 */
export interface Reaction<T extends DomainEventType = DomainEventType> {
  name: string;
  event: T;
  /** Why it runs, in one line. */
  description: string;
  handle(deps: ReactionDeps, event: DomainEventOf<T>): Promise<void>;
}

/** What the reactions are installed with. */
export type ReactionDeps = Pick<AppContext, 'db' | 'publisher' | 'bidding' | 'video'> & {
  /** The chat's presenter (its lines' pseudonyms). */
  chat: ChatPresenter;
};

/** A reaction in the registry: its handler's event type checked where it was written, and how it subscribes. */
export interface RegisteredReaction {
  name: string;
  event: DomainEventType;
  description: string;
  install(publisher: Pick<Publisher, 'subscribe'>, deps: ReactionDeps): () => void;
}

/** Registers a reaction, keeping its event's type between the subscription and its handler. */
const reaction = <T extends DomainEventType>(r: Reaction<T>): RegisteredReaction => ({
  name: r.name,
  event: r.event,
  description: r.description,
  install: (publisher, deps) => publisher.subscribe(r.event, (event) => r.handle(deps, event)),
});

export const reactions: readonly RegisteredReaction[] = [
  reaction({
    name: 'lot-finished',
    event: 'auctionClosed',
    description: "A closed auction that is a show's lot finishes that lot for the show's viewers and its Live Hub.",
    handle: (deps, event) => tellLotFinished({ db: deps.db, publisher: deps.publisher, present: deps.bidding.present }, event),
  }),
  reaction({
    name: 'chat-lot-opened',
    event: 'lotTimerSet',
    description: "A lot goes on the block: its line in the show's chat.",
    handle: (deps, event) => announceLotOpened({ db: deps.db, publisher: deps.publisher, present: deps.chat }, event),
  }),
  reaction({
    name: 'recording-keyframe',
    event: 'lotTimerSet',
    description: "A lot goes on the block in a recorded show: the seller's camera is asked for a keyframe, so the lot's clip starts on a whole picture.",
    handle: async (deps, event) => {
      await deps.video.tap?.keyframe(event.timer.sessionId);
    },
  }),
  reaction({
    name: 'chat-lot-finished',
    event: 'lotFinished',
    description: 'A lot finished: "¡Vendido…!" (or unsold) in the show\'s chat.',
    handle: (deps, event) => announceLotFinished({ db: deps.db, publisher: deps.publisher, present: deps.chat }, event),
  }),
  reaction({
    name: 'rehearsal-restore',
    event: 'sessionChanged',
    description: "A rehearsal ('Ensayo') that ended is put back at once, after its end is published.",
    handle: (deps, event) => restoreEndedRehearsal({ db: deps.db, present: deps.bidding.present, publish: (events) => deps.publisher.publish(events) }, event),
  }),
];

/** Subscribes every reaction to `publisher`; answers the uninstall. */
export function installReactions(publisher: Pick<Publisher, 'subscribe'>, deps: ReactionDeps, registry: readonly RegisteredReaction[] = reactions): () => void {
  const offs = registry.map((r) => r.install(publisher, deps));
  return () => {
    for (const off of offs) off();
  };
}
