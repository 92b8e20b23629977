import type { ReminderChannel, ReminderKind, ReminderStatus } from './after-show.js';
import { formatMoney } from './money.js';
import { whatsappLink } from './payments.js';
import { PURCHASES_PATH } from './screens.js';

/** The reminder ladder of a bill with a link, and the words each reminder says (wa.me and the Cloud API). */

const HOUR_MS = 3_600_000;
/** The second reminder, this long after the link. */
export const AFTER_LINK_MS = 24 * HOUR_MS;
/** The last reminder, this long before the deadline. */
export const BEFORE_DEADLINE_MS = 12 * HOUR_MS;

/** The ladder's kinds, in the order they go out ('secondChance' belongs to second-chance offers). */
export const LADDER_KINDS = ['bill', 'afterLink', 'beforeDeadline'] as const satisfies readonly ReminderKind[];
export type LadderKind = (typeof LADDER_KINDS)[number];

/**
 * When each reminder of a bill falls due: the bill at its link, one 24 h after, one 12 h before the
 * deadline. The last is left out when it would come before the 24 h one (a short deadline) or is
 * already past at `now`, and so is the 24 h one (a bill found late must not nag twice at once).
 */
export function reminderLadder(opts: { linkCreatedAt: Date; deadlineAt: Date | null; now: Date }): { kind: LadderKind; dueAt: Date }[] {
  const link = opts.linkCreatedAt.getTime();
  const ladder: { kind: LadderKind; dueAt: Date }[] = [{ kind: 'bill', dueAt: new Date(link) }];
  // A bill found more than a day after its link (the server was off) gets its first message now, not two at once.
  if (link + AFTER_LINK_MS > opts.now.getTime()) ladder.push({ kind: 'afterLink', dueAt: new Date(link + AFTER_LINK_MS) });
  if (opts.deadlineAt) {
    const before = opts.deadlineAt.getTime() - BEFORE_DEADLINE_MS;
    if (before >= link + AFTER_LINK_MS && before > opts.now.getTime()) ladder.push({ kind: 'beforeDeadline', dueAt: new Date(before) });
  }
  return ladder;
}

/** Backoff of a failed Cloud API send, by attempts made so far: 1 min, 5 min, 30 min, 2 h; then it gives up. */
export const SEND_BACKOFF_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * HOUR_MS] as const;
export const MAX_SEND_ATTEMPTS = SEND_BACKOFF_MS.length + 1;

/** When to try again after `attempts` failed sends, or null when it is time to give up. */
export function nextAttemptDelay(attempts: number): number | null {
  if (attempts >= MAX_SEND_ATTEMPTS) return null;
  return SEND_BACKOFF_MS[Math.max(0, attempts - 1)] ?? null;
}

/** WhatsApp's delivery statuses, in the order they happen; a status never moves backwards. */
const DELIVERY_RANK: Partial<Record<ReminderStatus, number>> = { sending: 0, sent: 1, delivered: 2, read: 3, failed: 4 };

/** Whether a delivery status from a webhook may replace the stored one (later in the ladder only). */
export function isDeliveryStep(current: ReminderStatus, next: 'sent' | 'delivered' | 'read' | 'failed'): boolean {
  const from = DELIVERY_RANK[current];
  const to = DELIVERY_RANK[next];
  if (from === undefined || to === undefined) return false;
  // A failure after delivery is not WhatsApp's way; a read message stays read.
  if (next === 'failed') return current === 'sending' || current === 'sent';
  return to > from;
}

/** A bill's facts a reminder's message names. */
/** Where a bill comes from, for the first message's words: a show's bill, a second-chance offer, or a bill made by hand. */
export type ReminderSource = 'show' | 'secondChance' | 'sale';

export interface ReminderBill {
  /** Absent: a bill made by hand ('sale'). */
  source?: ReminderSource;
  winnerName: string;
  lots: string[];
  grandTotal: number;
  paymentLink: string;
  deadlineAt: Date | null;
}

const deadlineFormat = new Intl.DateTimeFormat('es-MX', {
  timeZone: 'America/Mexico_City',
  weekday: 'long',
  day: 'numeric',
  month: 'long',
  hour: 'numeric',
  minute: '2-digit',
});

/** A deadline as buyers in Mexico read it: "viernes, 27 de noviembre, 4:00 p.m." (Mexico City time). */
export function formatDeadline(deadline: Date): string {
  return deadlineFormat.format(deadline).replace(/\u202f|\u00a0/g, ' ');
}

function firstName(name: string): string {
  return name.trim().split(/\s+/)[0] ?? '';
}

const FIRST_MESSAGE: Record<ReminderSource, (hello: string) => string> = {
  show: (hello) => `${hello} Esta es tu cuenta del show:`,
  secondChance: (hello) =>
    `${hello} El vendedor te ofrece este lote por tu puja más alta (segunda oportunidad). Si lo quieres, págalo antes de la fecha límite; si no, puedes rechazarlo en Mis compras:`,
  sale: (hello) => `${hello} Esta es tu cuenta:`,
};

/** The Spanish message of one reminder, as the wa.me link carries it. `origin` is the site's (for /compras). */
export function reminderMessage(kind: LadderKind, bill: ReminderBill, origin: string): string {
  const hello = `¡Hola${firstName(bill.winnerName) ? ` ${firstName(bill.winnerName)}` : ''}!`;
  const lots = bill.lots.map((name) => `• ${name}`);
  const total = formatMoney(bill.grandTotal);
  const deadline = bill.deadlineAt ? formatDeadline(bill.deadlineAt) : null;
  const purchases = `Tus compras: ${origin.replace(/\/+$/, '')}${PURCHASES_PATH}`;
  const opening =
    kind === 'bill'
      ? FIRST_MESSAGE[bill.source ?? 'sale'](hello)
      : kind === 'afterLink'
        ? `${hello} Te recordamos tu cuenta pendiente:`
        : `${hello} Tu cuenta vence pronto:`;
  return [
    opening,
    ...lots,
    `Total a pagar: ${total}`,
    `Paga aquí: ${bill.paymentLink}`,
    ...(deadline ? [`Fecha límite: ${deadline} (hora del centro de México)`] : []),
    purchases,
  ].join('\n');
}

/** The wa.me link of a reminder, or null without a WhatsApp number. */
export function reminderWhatsappHref(whatsapp: string | null, kind: LadderKind, bill: ReminderBill, origin: string): string | null {
  if (!whatsapp || whatsapp.replace(/\D/g, '') === '') return null;
  return whatsappLink(whatsapp, reminderMessage(kind, bill, origin));
}

/** The Cloud API template's body parameters, in order: name, total, link, deadline. */
export function templateParameters(bill: ReminderBill): [string, string, string, string] {
  return [
    firstName(bill.winnerName) || bill.winnerName,
    formatMoney(bill.grandTotal),
    bill.paymentLink,
    bill.deadlineAt ? formatDeadline(bill.deadlineAt) : 'sin fecha límite',
  ];
}

/** GET /api/reminders: one reminder with its bill. */
export interface ReminderView {
  id: string;
  paymentId: string;
  kind: ReminderKind;
  channel: ReminderChannel;
  status: ReminderStatus;
  /** Epoch ms. */
  dueAt: number;
  attempts: number;
  lastError: string | null;
  nextAttemptAt: number | null;
  sentAt: number | null;
  winnerName: string;
  winnerWhatsapp: string | null;
  companyName: string | null;
  lots: string[];
  grandTotal: number;
  paymentLink: string | null;
  deadlineAt: number | null;
  /** The wa.me link with the message ready, or null (no number, or a Cloud API reminder). */
  whatsappHref: string | null;
}

export interface ReminderListResponse {
  items: ReminderView[];
  /** Cloud API sends that gave up, in scope (shown with their error and attempts). */
  failed: ReminderView[];
}
