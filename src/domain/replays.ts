/**
 * Replays: every show that goes live is recorded (unless its seller turns it off), made into one
 * MP4 after it ends, and shown on its public page with a chapter per lot; each sold lot gets a clip
 * from its start to its hammer, the buyer's video receipt. Shared by both wings.
 */

import type { ChatMessage } from './chat.js';

/** A replay's life: being recorded while the show runs, then made into its MP4, then ready (or failed, with its reason). */
export const REPLAY_STATUSES = ['recording', 'processing', 'ready', 'failed'] as const;
export type ReplayStatus = (typeof REPLAY_STATUSES)[number];
/** What GET /api/live-sessions/{id}/replay answers: 'none' without a recording, 'hidden' for a ready replay its seller hid. */
export type ReplayState = ReplayStatus | 'none' | 'hidden';
export const REPLAY_VISIBILITIES = ['public', 'hidden'] as const;
export type ReplayVisibility = (typeof REPLAY_VISIBILITIES)[number];

/** Which recorder wrote a segment: ffmpeg fed by the embedded SFU, or Janus's own recording (.mjr files). */
export const RECORDING_SOURCES = ['embedded', 'janus'] as const;
export type RecordingSource = (typeof RECORDING_SOURCES)[number];

export const CLIP_STATUSES = ['pending', 'ready', 'failed'] as const;
export type ClipStatus = (typeof CLIP_STATUSES)[number];

/** A replay's height by default (REPLAY_HEIGHT): 720p. */
export const DEFAULT_REPLAY_HEIGHT = 720;
/** How long a replay is kept (REPLAY_RETENTION_DAYS). */
export const DEFAULT_REPLAY_RETENTION_DAYS = 90;
/** A sold lot's clip: from the lot's start to its hammer, at most this long. */
export const CLIP_MAX_MS = 2 * 60 * 1000;
/** A clip is kept this long after its bill is paid… */
export const CLIP_DAYS_AFTER_PAID = 30;
/** …or this long after its show when it never is. */
export const CLIP_DAYS_UNPAID = 90;

/** One chapter of a replay: a lot that ran, where it starts and ends on the replay's clock, and how it ended. */
export interface ReplayChapter {
  auctionId: string;
  name: string;
  imageUrl: string | null;
  startMs: number;
  endMs: number;
  result: 'sold' | 'unsold';
  /** The hammer price (pesos) when sold, else null. */
  price: number | null;
}

/**
 * GET /api/live-sessions/{id}/replay: the replay as its reader may see it (the server's
 * features/replays/service.ts decides): its state, its progress while it is made, and once ready
 * its video, poster and chapters.
 */
export interface ReplayAnswer {
  status: ReplayState;
  /** 0–100 while it is made. */
  progress: number;
  url: string | null;
  durationMs: number | null;
  posterUrl: string | null;
  chapters: ReplayChapter[];
  /** The show's editors only: whether buyers see it, and why the last attempt failed. */
  visibility?: ReplayVisibility;
  error?: string | null;
}

/** A show without a replay (or whose replay its reader may not see, or was deleted). */
export const NO_REPLAY: ReplayAnswer = { status: 'none', progress: 0, url: null, durationMs: null, posterUrl: null, chapters: [] };

/**
 * One line of the show's chat as its replay shows it: what anyone in the room saw of it (never a
 * deleted line, one kept to its author, or any author's id or tag), and `atMs`, where it was
 * written on the replay's clock.
 */
export type ReplayChatLine = Omit<ChatMessage, 'sessionId' | 'authorTag' | 'onlyAuthor'> & { atMs: number };

/**
 * GET /api/live-sessions/{id}/replay/chat[?after={seq}]: the chat's lines written while the show
 * was recorded, in the chat's order, a page at a time; `next` asks for the page after it, null on
 * the last. A line written while nothing was recorded (before, in a pause, after) has no moment
 * in the replay and is not in it.
 */
export interface ReplayChatPage {
  lines: ReplayChatLine[];
  next: string | null;
}

/** Lines in a page of the replay's chat: a few minutes of a busy show. */
export const REPLAY_CHAT_PAGE_SIZE = 500;
