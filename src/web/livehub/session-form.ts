import type { z } from 'zod';
import {
  AUTO_ADVANCE_MAX_SECONDS,
  AUTO_ADVANCE_MIN_SECONDS,
  type BiddingConfig,
  DEFAULT_AUTO_ADVANCE_SECONDS,
  DEFAULT_INCREMENT_BANDS,
  INCREMENT_BANDS_MAX,
  MIN_INCREMENT_MAX,
  type SessionCreateInput,
  type SessionUpdateInput,
  sessionSlug,
  TIMER_MIN_SECONDS,
  TIMER_STEP_SECONDS,
  type TimerMode,
  ZSessionCreate,
  ZSessionUpdate,
  ZTimerInput,
} from '../../domain/live.js';
import { MAX_PRICE } from '../../domain/money.js';
import { fieldErrors } from '../lib/field-errors';

/**
 * The Live Hub's form rules, pure so they are tested without a browser. Every error is an issue
 * code of the shared schemas (the server's own checks), shown through `livehub.errors.<code>`.
 */

export type FieldErrors = Partial<Record<string, string>>;
export type Parsed<T> = { ok: true; value: T } | { ok: false; errors: FieldErrors };

/** The first issue of each field, by its top-level name ('biddingConfig.minIncrement' for nested ones). */
export function issuesToErrors(error: z.ZodError): FieldErrors {
  return fieldErrors(
    error.issues,
    (path) => (path.length > 0 ? path.map(String).join('.') : 'form'),
    (message) => message,
  );
}

/** A number input's value ('' or a number, as Mantine gives it; text as typed): undefined when blank, NaN when not a number. */
export function toNumber(value: string | number | null | undefined): number | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'number') return value;
  const text = value.trim();
  if (text === '') return undefined;
  return /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : Number.NaN;
}

// ── 'Crear Sesión' ───────────────────────────────────────────────────────────

export interface CreateSessionValues {
  title: string;
  /** epoch ms, Mexico City wall time already converted; null when not chosen. */
  scheduledAt: number | null;
  sellerSlug: string;
  whatsappLink: string;
  /** 'Grabar el show' as the seller set it; left out (the company's default, 'Grabar los shows') until then. */
  recording?: boolean;
}

export const EMPTY_CREATE_VALUES: CreateSessionValues = { title: '', scheduledAt: null, sellerSlug: '', whatsappLink: '' };

/** Quick choices for the scheduled date ('Ahora', 'En 15 min', 'En 1 h'): a show often starts right away. */
export const SCHEDULE_PRESETS_MINUTES = [0, 15, 60] as const;

/** now + N minutes, to the whole minute (the picker shows minutes). */
export function presetScheduledAt(minutes: number, now: number = Date.now()): number {
  return Math.floor(now / 60_000) * 60_000 + minutes * 60_000;
}

/** SPEC §5: 'Crear' is enabled only with a title and a scheduled date-time. */
export function canCreateSession(values: Pick<CreateSessionValues, 'title' | 'scheduledAt'>): boolean {
  return values.title.trim() !== '' && values.scheduledAt !== null;
}

/** Something was typed or chosen: closing asks before it is lost. */
export function isCreateDirty(values: CreateSessionValues): boolean {
  return values.title !== '' || values.scheduledAt !== null || values.sellerSlug !== '' || values.whatsappLink !== '' || values.recording !== undefined;
}

/** The slug the server will derive (SPEC §5 rules and fallbacks); '' while nothing can be derived yet. */
export function slugPreview(values: CreateSessionValues): string {
  if (values.scheduledAt === null && !values.sellerSlug.trim() && !values.title.trim()) return '';
  return sessionSlug({ sellerSlug: values.sellerSlug, title: values.title, scheduledAt: values.scheduledAt ?? Date.now() });
}

export function parseCreateSession(values: CreateSessionValues): Parsed<SessionCreateInput> {
  const body = {
    title: values.title,
    scheduledAt: values.scheduledAt ?? undefined,
    sellerSlug: values.sellerSlug.trim() ? values.sellerSlug : null,
    whatsappLink: values.whatsappLink,
    // Sent only when the seller touched the switch: otherwise the server applies the company's default.
    ...(values.recording !== undefined ? { recording: values.recording } : {}),
  };
  const parsed = ZSessionCreate.safeParse(body);
  if (!parsed.success) return { ok: false, errors: issuesToErrors(parsed.error) };
  return { ok: true, value: parsed.data };
}

// ── 'Editar Sesión' ──────────────────────────────────────────────────────────

/** One row of the band table as typed: from this price up, bids rise by `increment`. */
export interface BandRowValues {
  from: string | number;
  increment: string | number;
}

export interface EditSessionValues {
  title: string;
  scheduledAt: number | null;
  whatsappLink: string;
  /** 'Fijo' (minIncrement) or 'Por rango de precio' (the band table). */
  incrementKind: 'flat' | 'bands';
  minIncrement: string | number;
  bands: BandRowValues[];
  timerMode: TimerMode;
  /** Extender's window. */
  antiSnipeSeconds: string | number;
  /** Contrapuja's W and R. */
  counterBidWindowSeconds: string | number;
  counterBidResetSeconds: string | number;
  timerSecondsDefault: string | number;
  isAutoAdvance: boolean;
  autoAdvanceSeconds: string | number;
  /** 'Grabar el show'. */
  recording: boolean;
}

/** The suggested table, as rows the seller can edit. */
export function suggestedBandRows(): BandRowValues[] {
  return DEFAULT_INCREMENT_BANDS.map((band) => ({ from: band.from, increment: band.increment }));
}

export function editValuesFrom(session: {
  title: string;
  scheduledAt: number;
  whatsappLink: string | null;
  biddingConfig: BiddingConfig;
  recording: boolean;
}): EditSessionValues {
  const config = session.biddingConfig;
  return {
    title: session.title,
    scheduledAt: session.scheduledAt,
    whatsappLink: session.whatsappLink ?? '',
    incrementKind: config.incrementBands ? 'bands' : 'flat',
    minIncrement: config.minIncrement,
    bands: config.incrementBands ? config.incrementBands.map((band) => ({ from: band.from, increment: band.increment })) : suggestedBandRows(),
    timerMode: config.timerMode,
    antiSnipeSeconds: config.antiSnipeSeconds,
    counterBidWindowSeconds: config.counterBidWindowSeconds,
    counterBidResetSeconds: config.counterBidResetSeconds,
    timerSecondsDefault: config.timerSecondsDefault,
    isAutoAdvance: config.autoAdvanceSeconds !== null,
    autoAdvanceSeconds: config.autoAdvanceSeconds ?? DEFAULT_AUTO_ADVANCE_SECONDS,
    recording: session.recording,
  };
}

/** SPEC §5: saving is ignored while the title or the scheduled value is blank. */
export function canSaveSession(values: Pick<EditSessionValues, 'title' | 'scheduledAt'>): boolean {
  return canCreateSession(values);
}

/** The error key of a band row's field ('biddingConfig.incrementBands.2.from'), as the server names it too. */
export const bandField = (row: number, field: keyof BandRowValues) => `biddingConfig.incrementBands.${row}.${field}`;
/** The table's own error (too many rows, or one the rows' checks did not place). */
export const BANDS_FIELD = 'biddingConfig.incrementBands';

const isWhole = (value: number | undefined): value is number => value !== undefined && Number.isSafeInteger(value);

/**
 * Each band row's first problem, on the row and field it belongs to: ZIncrementBands says the
 * table is not ascending, this says which row breaks it, so the seller sees the error where it is.
 */
export function bandRowErrors(rows: readonly BandRowValues[]): FieldErrors {
  const errors: FieldErrors = {};
  if (rows.length > INCREMENT_BANDS_MAX) errors[BANDS_FIELD] = 'bandsTooMany';
  let previous: number | undefined;
  rows.forEach((row, i) => {
    const from = i === 0 ? 0 : toNumber(row.from);
    const increment = toNumber(row.increment);
    if (i === 0 && toNumber(row.from) !== 0) errors[bandField(i, 'from')] = 'bandsFirstFromZero';
    else if (!isWhole(from) || from < 0 || from > MAX_PRICE) errors[bandField(i, 'from')] = 'bandsInvalid';
    else if (previous !== undefined && from <= previous) errors[bandField(i, 'from')] = 'bandsNotAscending';
    if (!isWhole(increment) || increment < 1 || increment > MIN_INCREMENT_MAX) errors[bandField(i, 'increment')] = 'incrementInvalid';
    if (isWhole(from)) previous = Math.max(previous ?? from, from);
  });
  return errors;
}

/**
 * A field the chosen format does not show is still sent when the schema requires it: what was
 * typed if it is valid, else what the session has, so a hidden field never blocks a save (and
 * the form keeps what was typed, for when the seller switches back).
 */
function hiddenOr(typed: string | number, stored: number, ok: (n: number) => boolean): number {
  const value = toNumber(typed);
  return value !== undefined && ok(value) ? value : stored;
}

export function parseEditSession(values: EditSessionValues, stored?: BiddingConfig): Parsed<SessionUpdateInput> {
  const isBands = values.incrementKind === 'bands';
  const mode = values.timerMode;
  const minIncrement =
    isBands && stored
      ? hiddenOr(values.minIncrement, stored.minIncrement, (n) => isWhole(n) && n >= 1 && n <= MIN_INCREMENT_MAX)
      : toNumber(values.minIncrement);
  const antiSnipeSeconds =
    mode !== 'extend' && stored
      ? hiddenOr(values.antiSnipeSeconds, stored.antiSnipeSeconds, (n) => isWhole(n) && n >= 0 && n <= 300)
      : toNumber(values.antiSnipeSeconds);
  const body = {
    title: values.title,
    scheduledAt: values.scheduledAt ?? undefined,
    whatsappLink: values.whatsappLink,
    biddingConfig: {
      minIncrement,
      antiSnipeSeconds,
      timerSecondsDefault: toNumber(values.timerSecondsDefault),
      timerMode: mode,
      // W and R only matter under Contrapuja; elsewhere the session keeps what it had.
      ...(mode === 'counterBid'
        ? { counterBidWindowSeconds: toNumber(values.counterBidWindowSeconds), counterBidResetSeconds: toNumber(values.counterBidResetSeconds) }
        : {}),
      incrementBands: isBands ? values.bands.map((row, i) => ({ from: i === 0 ? 0 : toNumber(row.from), increment: toNumber(row.increment) })) : null,
      autoAdvanceSeconds: values.isAutoAdvance ? toNumber(values.autoAdvanceSeconds) : null,
    },
    recording: values.recording,
  };
  // Every field is sent, so a blank one is an error rather than "left unchanged".
  if (body.scheduledAt === undefined) return { ok: false, errors: { scheduledAt: 'scheduledAtRequired' } };
  const rowErrors = isBands ? bandRowErrors(values.bands) : {};
  const parsed = ZSessionUpdate.safeParse(body);
  if (!parsed.success) {
    const errors = { ...issuesToErrors(parsed.error), ...rowErrors };
    // The table's own refinement is said on its rows when a row check found the row.
    if (Object.keys(rowErrors).some((key) => key.startsWith(`${BANDS_FIELD}.`)) && errors[BANDS_FIELD] !== 'bandsTooMany') delete errors[BANDS_FIELD];
    return { ok: false, errors };
  }
  if (Object.keys(rowErrors).length > 0) return { ok: false, errors: rowErrors };
  return { ok: true, value: parsed.data };
}

/** 'Avance automático': 3 to 120 seconds. */
export const AUTO_ADVANCE_RANGE = { min: AUTO_ADVANCE_MIN_SECONDS, max: AUTO_ADVANCE_MAX_SECONDS } as const;

// ── The custom timer (SPEC §5 "Custom timer") ────────────────────────────────

/** The custom seconds as typed: an integer, at least 5, in steps of 5 (and at most an hour). */
export function parseCustomSeconds(typed: string): Parsed<number> {
  const value = toNumber(typed);
  if (value === undefined) return { ok: false, errors: { seconds: 'timerRequired' } };
  const parsed = ZTimerInput.safeParse({ seconds: value });
  if (!parsed.success) return { ok: false, errors: issuesToErrors(parsed.error) };
  return { ok: true, value: parsed.data.seconds };
}

/** The custom input's starting value: the session's default timer, else SPEC's 60. */
export function defaultCustomSeconds(config: BiddingConfig | null | undefined): string {
  const seconds = config?.timerSecondsDefault;
  const ok = typeof seconds === 'number' && seconds >= TIMER_MIN_SECONDS && seconds % TIMER_STEP_SECONDS === 0;
  return String(ok ? seconds : 60);
}
