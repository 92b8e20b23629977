/** The messages between the live show's processes: the server (the bench itself), the viewers, the show and the chatters. */

/** The child's role (viewers, show, chatters), in its environment. */
export const ROLE_ENV = 'MARTILLO_BENCH_LIVE_ROLE';

/**
 * socket.io-client (what the web app runs; each viewer parses every event, the whole session state
 * included), or raw: the same protocol over a bare WebSocket that parses only `lotFinished` and a
 * chat line's `seq`, so one process can stand for a thousand phones without its own parsing
 * delaying the arrival times.
 */
export type ViewerClient = 'socket.io' | 'raw';

export interface ViewersStart {
  type: 'start';
  client: ViewerClient;
  base: string;
  sessionId: string;
  viewers: number;
}
/** A chat line every viewer should have received (not only-author, not deleted). */
export interface ExpectedLine {
  seq: number;
  /** A chatter's line (else one of the show's system lines). */
  user: boolean;
  /** epoch ms: the server's `createdAt` (the database's clock, on this machine). */
  createdAt: number;
  /** epoch ms: when its author sent the POST, and when the 201 arrived (this machine's clock); null when not a chatter's. */
  sentAt: number | null;
  acceptedAt: number | null;
}
export interface ViewersFinish {
  type: 'finish';
  /** lotId → closed_at (epoch ms, database clock). */
  closedAt: Record<string, number>;
  /** Ascending seq. */
  chat: ExpectedLine[];
}
export interface ChatSeen {
  /** Per chatter's line: the latest viewer's arrival minus its `createdAt`. */
  fromCreatedAt: number[];
  /** Per chatter's line: the latest viewer's arrival minus when its POST was sent, and minus when it answered. */
  fromSend: number[];
  fromAnswer: number[];
  /** Per chatter's line: the first viewer's arrival minus its `createdAt`. */
  firstFromCreatedAt: number[];
  /** Per system line: the latest viewer's arrival minus its `createdAt`. */
  systemFromCreatedAt: number[];
  /** (viewer, line) pairs never received. */
  lost: number;
  /** Arrivals of a line the viewer already had. */
  duplicated: number;
  /** Arrivals with a lower seq than one the viewer already had. */
  outOfOrder: number;
  /** Arrivals of a line that was not for everyone (or not stored). */
  unexpected: number;
  /** Viewers with at least one of the four above. */
  viewersAffected: number;
}
export interface ViewersResult {
  type: 'result';
  joined: number;
  connectErrors: number;
  connectMs: number;
  /** Per lot: the latest viewer's arrival minus closed_at. */
  deliveries: number[];
  /** Per lot: the first viewer's arrival minus closed_at. */
  firstDeliveries: number[];
  /** (viewer, lot) pairs that never received the lot's `lotFinished`. */
  missing: number;
  /** (viewer, lot) pairs that received it more than once. */
  duplicates: number;
  /** Lots whose `lotFinished` said sold (a winner), as the viewers saw them. */
  soldSeen: number;
  chat: ChatSeen;
  cpuMs: number;
  eventLoopDelayP99Ms: number;
}

/**
 * Contrapuja's bidding plan: on a 'late' lot the bidders keep bidding into the last W seconds and
 * past the lot's first end (each leading bid there sets the clock to R seconds), until `lateExtraMs`
 * after that first end; on the other lots they stop before the window opens, so the clock never moves.
 */
export interface CounterBidPlan {
  windowS: number;
  resetS: number;
  /** Share of the lots bid late (0..1), spread evenly over the show. */
  lateShare: number;
  lateExtraMs: number;
}

/** Whether the lot at `index` is one bid late, `share` of them spread evenly over the show. */
export function isLateLot(index: number, share: number): boolean {
  return Math.floor((index + 1) * share) > Math.floor(index * share);
}

export interface ShowStart {
  type: 'start';
  base: string;
  sessionId: string;
  lotIds: string[];
  sellerCookie: string;
  buyerCookies: string[];
  bidders: number;
  timerS: number;
  bidGapMs: number;
  /** Under Contrapuja, when the bidders stop on each lot; null: they bid until the lot closes. */
  counterBid: CounterBidPlan | null;
}
export interface AcceptedBid {
  lotId: string;
  auctionId: string;
  buyerIndex: number;
  seq: number;
  amount: number;
}
/** Each lot as the show opened it. */
export interface OpenedLot {
  lotId: string;
  auctionId: string;
  /** The end the timer set (epoch ms, the server's clock), before any bid moved it. */
  firstEndMs: number;
  /** Bid into the last W seconds (Contrapuja's plan). */
  late: boolean;
}
export interface ShowResult {
  type: 'result';
  accepted: AcceptedBid[];
  attempted: number;
  refusedClosed: number;
  refusedTooLow: number;
  otherErrors: number;
  lastError: string | null;
  /** Per lot: from the timer's answer to the `lotFinished` the show itself received, ms. */
  lotWallMs: number[];
  lots: OpenedLot[];
  cpuMs: number;
}

export interface ChattersStart {
  type: 'start';
  base: string;
  sessionId: string;
  cookies: string[];
  /** Lines a second, all chatters together. */
  rate: number;
}
export interface ChattersResult {
  type: 'result';
  /** Each 201: the line's id and seq as answered, when the POST was sent and when its answer arrived (epoch ms). */
  accepted: { id: string; seq: number; sentAt: number; acceptedAt: number }[];
  attempted: number;
  /** Refusals by `error.code` (or HTTP_<status>, or NETWORK). */
  refused: Record<string, number>;
  lastError: string | null;
  /** Request to answer, every attempt, ms. */
  latencyMs: number[];
  cpuMs: number;
}
