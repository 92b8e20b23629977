/**
 * A live show's chat and its moderation: the rules the server enforces and the shapes the browser
 * reads, in one place. The server decides every refusal; the page only shows it.
 */
import type { WithdrawnBids } from './bidding.js';
import { CHAT_MARK_SHARE_MAX, canonicalChatText, cleanChatText, holdsMutedWord, markShare } from './chat-text.js';

/** A line holds at most this many characters (user-perceived: code points). */
export const CHAT_TEXT_MAX = 200;
/** Lines per page: joining shows the latest page, scrolling up loads the one before. */
export const CHAT_PAGE_SIZE = 50;
/** About one line every this many seconds per user, whatever the slow mode. */
export const CHAT_MIN_INTERVAL_SECONDS = 2;
/** Slow mode: seconds between lines per user (0 = off). */
export const SLOW_MODE_SECONDS = [0, 5, 10, 30] as const;
export type SlowModeSeconds = (typeof SLOW_MODE_SECONDS)[number];
/** A timed mute, in minutes; `null` mutes until the show ends. The panel offers 5 minutes and the whole show. */
export const MUTE_MINUTES_DEFAULT = 5;
export const MUTE_MINUTES_MAX = 24 * 60;
/** A company's muted words: how many, and how long each may be. */
export const MUTED_WORDS_MAX = 200;
export const MUTED_WORD_MAX_LENGTH = 40;

/** Why a line or a bid is refused, as the API's stable `code`. */
export const CHAT_REFUSALS = ['CHAT_MUTED', 'CHAT_SLOW_MODE', 'CHAT_RATE_LIMITED', 'CHAT_ADDRESS_LIMITED', 'CHAT_DUPLICATE', 'BUYER_BLOCKED'] as const;
export type ChatRefusal = (typeof CHAT_REFUSALS)[number];

/**
 * - `user`: a buyer's (or the seller's) line;
 * - `announcement`: a moderator's highlighted line;
 * - `system`: the show's own events (a lot on the block, sold, unsold), written by the server.
 */
export const CHAT_KINDS = ['user', 'announcement', 'system'] as const;
export type ChatKind = (typeof CHAT_KINDS)[number];

/** What a system line says; the page renders it from the catalogue. */
export type ChatSystemEvent =
  | { event: 'lotOpened'; lotId: string; auctionName: string; startingPrice: number }
  | { event: 'lotSold'; lotId: string; auctionName: string; price: number; winnerName: string }
  | { event: 'lotUnsold'; lotId: string; auctionName: string };

/** One line as anyone in the room sees it: no e-mail, no phone, no user id. */
export interface ChatMessage {
  id: string;
  sessionId: string;
  /** Orders the session's lines: newest last. */
  seq: number;
  kind: ChatKind;
  /** The public name: first name and the last name's initial ("Sofía R."); null for a system line. */
  authorName: string | null;
  /** A per-session pseudonym of the author (bids' tags do the same per auction): the page marks "tú" with it. */
  authorTag: string | null;
  /** The author moderates this show (the seller, a company admin or an appointed moderator): shown with a badge. */
  authorIsModerator: boolean;
  /** Plain text, never HTML; for a system line, the auction's name (the page renders `system`). */
  text: string;
  system: ChatSystemEvent | null;
  /** A muted word was in it: only its author sees it. */
  onlyAuthor: boolean;
  /** epoch ms */
  createdAt: number;
}

/** The chat's settings as everyone in the room sees them. */
export interface ChatSettings {
  slowModeSeconds: SlowModeSeconds;
  pinned: ChatMessage | null;
}

/** What the signed-in reader may do in this show's chat. */
export interface ChatMe {
  tag: string;
  /** A signed-in user with a complete profile, not muted or blocked, in a session not ended. */
  canWrite: boolean;
  isModerator: boolean;
  /** epoch ms; null = until the end. Absent when not muted. */
  mutedUntil?: number | null;
  isBlocked: boolean;
}

/** GET /api/live-sessions/{id}/chat: a page of lines, newest last. */
export interface ChatPage {
  items: ChatMessage[];
  /** The `before` of the page before this one, or null at the start of the show. */
  nextBefore: string | null;
  settings: ChatSettings;
  /** null when signed out. */
  me: ChatMe | null;
}

/** For moderators: a reported line, with who wrote it, so they can act on it. */
export interface ChatReport {
  messageId: string;
  message: ChatMessage;
  authorId: string | null;
  reports: number;
  /** epoch ms of the latest report */
  lastReportedAt: number;
}

/** A session's moderator as the Hub lists it. */
export interface SessionModerator {
  userId: string;
  name: string;
  /** Only for the show's owners (its seller, the company's admins): an appointed moderator reads names only. */
  email?: string;
  /** The seller and company admins moderate every show of theirs: they cannot be removed. */
  isOwner: boolean;
}

/** A user muted in one show's chat, as moderators list them. */
export interface SessionMute {
  userId: string;
  /** The public name ("Sofía R."). */
  name: string;
  /** epoch ms; null = until the show ends. */
  until: number | null;
}

/** A user blocked from a company's shows, as the admin panel lists them. */
export interface CompanyBlock {
  userId: string;
  name: string;
  /** Only for the company's own people (its sellers and admins) and platform admins: a show's moderator reads the name only. */
  email?: string;
  blockedBy: string | null;
  /** epoch ms */
  createdAt: number;
}

/** A lot the blocked user had already won and no bill holds: it is not billed while the block lasts. */
export interface HeldWin {
  auctionId: string;
  auctionName: string;
  amount: number | null;
}

/**
 * POST /api/companies/{id}/blocks: the block, and what it did to the user's bids with the company.
 * A repeat answers the same way (the lists then say what was left to do, usually nothing).
 */
export interface BlockAnswer extends CompanyBlock {
  /** The open lots whose standing bids were withdrawn, with the price each fell back to. */
  withdrawn: WithdrawnBids[];
  /** Their pre-bids ('Puja anticipada') on the company's lots to come, removed. */
  prebidsRemoved: number;
  /** Lots they had already won and no bill holds: never billed while the block lasts (unblocking makes them billable again). */
  heldWins: HeldWin[];
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why a line's text is refused (each has its words in the catalogue and in the server's messages). */
export type ChatTextProblem = 'empty' | 'blank' | 'tooManyMarks' | 'tooLong' | 'invalidCharacters';

/**
 * Why a line's text is refused as typed, or null: characters no keyboard types (NUL and other
 * controls, new lines, lone surrogates), empty, nothing visible once its invisible characters are
 * gone (`blank`), mostly combining marks ("Zalgo"), or longer than CHAT_TEXT_MAX once cleaned
 * (chat-text.ts: what is stored). Never rewritten silently: the author sees the refusal and keeps the text.
 */
export function chatTextProblem(text: string): ChatTextProblem | null {
  if (LONE_SURROGATE.test(text)) return 'invalidCharacters';
  // Tabs and new lines are not controls a chat line needs either: one line, plain text.
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0x2028 || code === 0x2029) return 'invalidCharacters';
  }
  if (text.trim().length === 0) return 'empty';
  if (markShare(text) > CHAT_MARK_SHARE_MAX) return 'tooManyMarks';
  const clean = cleanChatText(text);
  if (canonicalChatText(clean) === '') return 'blank';
  if ([...clean].length > CHAT_TEXT_MAX) return 'tooLong';
  return null;
}

/** The public name: first name and the last name's initial ("Sofía R."), else the first word of the display name. */
export function chatPublicName(profile: { firstName: string | null; lastName: string | null; displayName: string | null }): string {
  const first = profile.firstName?.trim().split(/\s+/)[0] ?? '';
  const lastInitial = [...(profile.lastName?.trim() ?? '')][0];
  if (first) return lastInitial ? `${first} ${lastInitial.toUpperCase()}.` : first;
  const display = profile.displayName?.trim().split(/\s+/) ?? [];
  const [a, b] = display;
  if (a) return b ? `${a} ${[...b][0]?.toUpperCase()}.` : a;
  return 'Participante';
}

/** Whether a line holds one of the company's muted words (as a whole word; chat-text.ts says what cannot hide it). */
export function containsMutedWord(text: string, words: readonly string[]): boolean {
  return holdsMutedWord(text, words);
}

/** Why one of a company's muted words is refused as typed (the list is saved whole or not at all). */
export type MutedWordProblem = 'empty' | 'surroundingSpaces' | 'tooLong' | 'invalidCharacters' | 'duplicate';

/** A refused word: its place in the list and, for a repeat, the place of the word it repeats. */
export interface MutedWordIssue {
  index: number;
  problem: MutedWordProblem;
  duplicateOf?: number;
}

/**
 * Every refused word of a muted-words list, in order: empty, spaces around it, longer than
 * MUTED_WORD_MAX_LENGTH characters, holding controls (NUL, tabs, new lines) or lone surrogates, or a
 * repeat of an earlier one ignoring case and accents ("Pésimo" and "pesimo"). Nothing is trimmed,
 * dropped or merged here: the author sees which word and fixes it.
 */
export function mutedWordsIssues(words: readonly string[]): MutedWordIssue[] {
  const issues: MutedWordIssue[] = [];
  const seen = new Map<string, number>();
  words.forEach((word, index) => {
    const problem = mutedWordProblem(word);
    if (problem) {
      issues.push({ index, problem });
      return;
    }
    const key = canonicalChatText(word);
    const first = seen.get(key);
    if (first === undefined) seen.set(key, index);
    else issues.push({ index, problem: 'duplicate', duplicateOf: first });
  });
  return issues;
}

/** Invisible format characters (zero-width space, soft hyphen, direction marks): a word holding one looks like another and matches nothing. The emoji joiner is kept. */
const INVISIBLE_FORMAT = /(?!\u200D)\p{Cf}/u;

function mutedWordProblem(word: string): Exclude<MutedWordProblem, 'duplicate'> | null {
  const text = chatTextProblem(word);
  if (text === 'invalidCharacters' || INVISIBLE_FORMAT.test(word)) return 'invalidCharacters';
  // Only accents ("´" alone) fold to nothing: no line could ever match it.
  if (text === 'empty' || canonicalChatText(word) === '') return 'empty';
  if (word.trim() !== word) return 'surroundingSpaces';
  if ([...word].length > MUTED_WORD_MAX_LENGTH) return 'tooLong';
  return null;
}
