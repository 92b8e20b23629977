import { LADDER_KINDS, type LadderKind, type ReminderSource, type ReminderView, reminderWhatsappHref } from '../../../../domain/reminders.js';
import type { paymentReminders } from '../../../db/schema.js';

export interface ReminderRow {
  reminder: typeof paymentReminders.$inferSelect;
  winnerName: string;
  winnerWhatsapp: string | null;
  companyId: string;
  sellerId: string | null;
  companyName: string | null;
  grandTotal: number | null;
  paymentLink: string | null;
  deadlineAt: Date | null;
  paymentStatus: string;
  lots: string[] | null;
  source: ReminderSource;
}

const isLadderKind = (kind: string): kind is LadderKind => (LADDER_KINDS as readonly string[]).includes(kind);

/** One reminder as GET /api/reminders answers it, with its wa.me link ready for a due wa.me reminder or a failed send. */
export function presentReminder(row: ReminderRow, origin: string): ReminderView {
  const r = row.reminder;
  const lots = row.lots ?? [];
  const grandTotal = Number(row.grandTotal ?? 0);
  const canSendByHand = (r.channel === 'waMe' && r.status === 'due') || r.status === 'failed';
  const whatsappHref =
    canSendByHand && row.paymentLink && isLadderKind(r.kind)
      ? reminderWhatsappHref(
          row.winnerWhatsapp,
          r.kind,
          { source: row.source, winnerName: row.winnerName, lots, grandTotal, paymentLink: row.paymentLink, deadlineAt: row.deadlineAt },
          origin,
        )
      : null;
  return {
    id: r.id,
    paymentId: r.paymentId,
    kind: r.kind,
    channel: r.channel,
    status: r.status,
    dueAt: r.dueAt.getTime(),
    attempts: r.attempts,
    lastError: r.lastError,
    nextAttemptAt: r.nextAttemptAt?.getTime() ?? null,
    sentAt: r.sentAt?.getTime() ?? null,
    winnerName: row.winnerName,
    winnerWhatsapp: row.winnerWhatsapp,
    companyName: row.companyName,
    lots,
    grandTotal,
    paymentLink: row.paymentLink,
    deadlineAt: row.deadlineAt?.getTime() ?? null,
    whatsappHref,
  };
}
