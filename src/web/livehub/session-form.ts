import type { z } from 'zod';
import {
  type BiddingConfig,
  type SessionCreateInput,
  type SessionUpdateInput,
  sessionSlug,
  TIMER_MIN_SECONDS,
  TIMER_STEP_SECONDS,
  ZSessionCreate,
  ZSessionUpdate,
  ZTimerInput,
} from '../../domain/live.js';
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
  return values.title !== '' || values.scheduledAt !== null || values.sellerSlug !== '' || values.whatsappLink !== '';
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
  };
  const parsed = ZSessionCreate.safeParse(body);
  if (!parsed.success) return { ok: false, errors: issuesToErrors(parsed.error) };
  return { ok: true, value: parsed.data };
}

// ── 'Editar Sesión' ──────────────────────────────────────────────────────────

export interface EditSessionValues {
  title: string;
  scheduledAt: number | null;
  whatsappLink: string;
  minIncrement: string | number;
  antiSnipeSeconds: string | number;
  timerSecondsDefault: string | number;
}

export function editValuesFrom(session: { title: string; scheduledAt: number; whatsappLink: string | null; biddingConfig: BiddingConfig }): EditSessionValues {
  return {
    title: session.title,
    scheduledAt: session.scheduledAt,
    whatsappLink: session.whatsappLink ?? '',
    minIncrement: session.biddingConfig.minIncrement,
    antiSnipeSeconds: session.biddingConfig.antiSnipeSeconds,
    timerSecondsDefault: session.biddingConfig.timerSecondsDefault,
  };
}

/** SPEC §5: saving is ignored while the title or the scheduled value is blank. */
export function canSaveSession(values: Pick<EditSessionValues, 'title' | 'scheduledAt'>): boolean {
  return canCreateSession(values);
}

export function parseEditSession(values: EditSessionValues): Parsed<SessionUpdateInput> {
  const body = {
    title: values.title,
    scheduledAt: values.scheduledAt ?? undefined,
    whatsappLink: values.whatsappLink,
    biddingConfig: {
      minIncrement: toNumber(values.minIncrement),
      antiSnipeSeconds: toNumber(values.antiSnipeSeconds),
      timerSecondsDefault: toNumber(values.timerSecondsDefault),
    },
  };
  // Every field is sent, so a blank one is an error rather than "left unchanged".
  if (body.scheduledAt === undefined) return { ok: false, errors: { scheduledAt: 'scheduledAtRequired' } };
  const parsed = ZSessionUpdate.safeParse(body);
  if (!parsed.success) return { ok: false, errors: issuesToErrors(parsed.error) };
  return { ok: true, value: parsed.data };
}

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
