import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { ReminderStatus } from '../../../../domain/after-show.js';
import { isDeliveryStep } from '../../../../domain/reminders.js';
import { type Db, rows } from '../../../db/connect.js';

/** What we read of a WhatsApp webhook: the statuses of our messages (anything else is ignored). */
const ZStatus = z.object({
  id: z.string().min(1).max(200),
  status: z.string(),
  timestamp: z.union([z.string(), z.number()]),
  errors: z.array(z.object({ code: z.unknown().optional(), title: z.string().optional(), message: z.string().optional() }).loose()).optional(),
});
const ZWebhook = z
  .object({
    entry: z
      .array(
        z
          .object({
            changes: z.array(z.object({ value: z.object({ statuses: z.array(z.unknown()).optional() }).loose() }).loose()).optional(),
          })
          .loose(),
      )
      .default([]),
  })
  .loose();

export interface DeliveryStatus {
  messageId: string;
  status: 'sent' | 'delivered' | 'read' | 'failed';
  at: Date;
  error: string | null;
}

const DELIVERY = new Set(['sent', 'delivered', 'read', 'failed']);

/** The delivery statuses a (verified) webhook body carries, oldest first. */
export function deliveryStatuses(body: unknown): DeliveryStatus[] {
  const parsed = ZWebhook.safeParse(body);
  if (!parsed.success) return [];
  const out: DeliveryStatus[] = [];
  for (const entry of parsed.data.entry)
    for (const change of entry.changes ?? [])
      for (const raw of change.value.statuses ?? []) {
        const s = ZStatus.safeParse(raw);
        if (!s.success || !DELIVERY.has(s.data.status)) continue;
        const seconds = Number(s.data.timestamp);
        if (!Number.isFinite(seconds) || seconds <= 0) continue;
        const error = s.data.errors?.[0];
        out.push({
          messageId: s.data.id,
          status: s.data.status as DeliveryStatus['status'],
          at: new Date(seconds * 1000),
          error: error ? String(error.title ?? error.message ?? error.code ?? 'error').slice(0, 500) : null,
        });
      }
  return out.sort((a, b) => a.at.getTime() - b.at.getTime());
}

/**
 * Applies delivery statuses by wamid: only forward (sent → delivered → read, or failed after sent)
 * and never older than the status already stored, so a replayed or late webhook changes nothing.
 * Answers how many reminders changed.
 */
export async function applyDeliveryStatuses(db: Db, statuses: DeliveryStatus[]): Promise<number> {
  let changed = 0;
  for (const s of statuses) {
    const done = await db.transaction(async (tx) => {
      const [row] = rows<{ id: string; status: ReminderStatus; status_at: string | Date | null }>(
        await tx.execute(sql`select id, status, status_at from payment_reminders where provider_message_id = ${s.messageId} for update`),
      );
      if (!row) return false;
      if (row.status_at && new Date(row.status_at).getTime() > s.at.getTime()) return false;
      if (!isDeliveryStep(row.status, s.status)) return false;
      await tx.execute(sql`
        update payment_reminders
        set status = ${s.status}, status_at = ${s.at.toISOString()}::timestamptz,
            last_error = ${s.status === 'failed' ? s.error : sql`last_error`}, updated_at = now()
        where id = ${row.id}`);
      return true;
    });
    if (done) changed++;
  }
  return changed;
}
