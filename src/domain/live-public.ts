/**
 * What the public live page needs of live sessions (its link, the lot timer), without Zod: live.ts
 * has the schemas and re-exports these, so a buyer's phone does not download Zod (issue 14).
 */

/**
 * SPEC §5's slug: lower-cased, normalised (accents dropped), everything but word characters,
 * spaces and hyphens removed, spaces turned to hyphens, repeated hyphens collapsed, leading and
 * trailing hyphens trimmed.
 */
export function slugify(value: string): string {
  return value
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[^\w\s-]/g, '')
    .replace(/\s+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** The public link of a session (SPEC §2): /live/{slug}/{sessionId}, or /live/{sessionId} without a slug. */
export function livePath(session: { id: string; sellerSlug: string | null | undefined }): string {
  const slug = session.sellerSlug ? slugify(session.sellerSlug) : '';
  return slug ? `/live/${encodeURIComponent(slug)}/${session.id}` : `/live/${session.id}`;
}

// ── Timer (SPEC §4 "Timer state") ────────────────────────────────────────────

export type TimerState = { kind: 'idle' } | { kind: 'running'; remainingMs: number } | { kind: 'finished' };

/**
 * idle: no current lot or no auction; running: the end time is in the future; finished: the end
 * time is missing or passed. `now` is the server's clock as the client corrects it.
 */
export function timerState(input: { hasCurrentLot: boolean; auction: { endTime: number | null; status: string } | null; now: number }): TimerState {
  if (!input.hasCurrentLot || !input.auction) return { kind: 'idle' };
  const { endTime, status } = input.auction;
  if (endTime === null || status === 'ended' || endTime <= input.now) return { kind: 'finished' };
  return { kind: 'running', remainingMs: endTime - input.now };
}

/** 'mm:ss', rounding up so a running timer never reads 00:00 (an hour or more reads 'h:mm:ss'). */
export function formatTimer(remainingMs: number): string {
  return formatClock(Math.max(0, Math.ceil(remainingMs / 1000)));
}

/** Whole seconds as 'mm:ss', or 'h:mm:ss' from an hour (the lot timer, the broadcast's elapsed clock). */
export function formatClock(totalSeconds: number): string {
  const total = Math.max(0, Math.floor(totalSeconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const mm = String(m).padStart(2, '0');
  const ss = String(s).padStart(2, '0');
  return h > 0 ? `${h}:${mm}:${ss}` : `${mm}:${ss}`;
}
