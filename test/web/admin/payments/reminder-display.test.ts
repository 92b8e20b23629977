import { describe, expect, it } from 'vitest';
import { REMINDER_KINDS } from '../../../../src/domain/after-show.js';
import { REMINDER_KIND_KEYS, sendTrouble } from '../../../../src/web/admin/payments/reminder-display.js';
import es from '../../../../src/web/i18n/es-MX.json' with { type: 'json' };

describe('how the panel names a reminder', () => {
  it('has a Spanish label for every kind, as the brief names them', () => {
    const kinds = (es as { reminders: { kinds: Record<string, string> } }).reminders.kinds;
    for (const kind of REMINDER_KINDS) expect(kinds[REMINDER_KIND_KEYS[kind].split('.').at(-1) as string]).toBeTruthy();
    expect([kinds.bill, kinds.afterLink, kinds.beforeDeadline]).toEqual(['Envío de la cuenta', 'Recordatorio 24 h', 'Vence pronto']);
  });

  it('tells a send given up from one waiting for its next attempt', () => {
    expect(sendTrouble({ status: 'failed', attempts: 5, nextAttemptAt: null })).toEqual({ kind: 'gaveUp', attempts: 5 });
    expect(sendTrouble({ status: 'sending', attempts: 2, nextAttemptAt: 1000 })).toEqual({ kind: 'retrying', attempts: 2, nextAt: 1000 });
  });
});
