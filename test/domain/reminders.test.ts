import { describe, expect, it } from 'vitest';
import {
  formatDeadline,
  isDeliveryStep,
  nextAttemptDelay,
  reminderLadder,
  reminderMessage,
  reminderWhatsappHref,
  templateParameters,
} from '../../src/domain/reminders.js';

const H = 3_600_000;
const link = new Date('2026-11-20T18:00:00Z');
const bill = {
  winnerName: 'Juana Pérez',
  lots: ['Reloj Casio', 'Lámpara'],
  grandTotal: 2150,
  paymentLink: 'https://pagos.example/abc',
  deadlineAt: new Date('2026-11-23T18:00:00Z'),
};

describe('the reminder ladder', () => {
  it('is the bill at the link, 24 h after it and 12 h before the deadline', () => {
    const ladder = reminderLadder({ linkCreatedAt: link, deadlineAt: new Date(link.getTime() + 72 * H), now: link });
    expect(ladder).toEqual([
      { kind: 'bill', dueAt: link },
      { kind: 'afterLink', dueAt: new Date(link.getTime() + 24 * H) },
      { kind: 'beforeDeadline', dueAt: new Date(link.getTime() + 60 * H) },
    ]);
  });

  it('leaves out the last reminder when it would come before the 24 h one', () => {
    const ladder = reminderLadder({ linkCreatedAt: link, deadlineAt: new Date(link.getTime() + 30 * H), now: link });
    expect(ladder.map((s) => s.kind)).toEqual(['bill', 'afterLink']);
  });

  it('a bill found more than a day late gets only its first message', () => {
    const ladder = reminderLadder({ linkCreatedAt: link, deadlineAt: new Date(link.getTime() + 72 * H), now: new Date(link.getTime() + 25 * H) });
    expect(ladder.map((s) => s.kind)).toEqual(['bill', 'beforeDeadline']);
  });

  it('leaves out the last reminder when it is already past', () => {
    const ladder = reminderLadder({ linkCreatedAt: link, deadlineAt: new Date(link.getTime() + 72 * H), now: new Date(link.getTime() + 61 * H) });
    expect(ladder.map((s) => s.kind)).toEqual(['bill']);
  });
});

describe('retries and delivery statuses', () => {
  it('backs off 1 min, 5, 30, 2 h, then gives up after the fifth attempt', () => {
    expect([1, 2, 3, 4, 5].map(nextAttemptDelay)).toEqual([60_000, 300_000, 1_800_000, 7_200_000, null]);
  });

  it('moves only forward', () => {
    expect(isDeliveryStep('sent', 'delivered')).toBe(true);
    expect(isDeliveryStep('delivered', 'read')).toBe(true);
    expect(isDeliveryStep('read', 'delivered')).toBe(false);
    expect(isDeliveryStep('delivered', 'delivered')).toBe(false);
    expect(isDeliveryStep('sent', 'failed')).toBe(true);
    expect(isDeliveryStep('read', 'failed')).toBe(false);
    expect(isDeliveryStep('skipped', 'delivered')).toBe(false);
  });
});

describe('the messages', () => {
  it('names the lots, the total, the link, the deadline in Mexico City time and Mis compras', () => {
    const text = reminderMessage('bill', { ...bill, source: 'show' }, 'https://martillo.mx/');
    expect(text).toContain('¡Hola Juana! Esta es tu cuenta del show:');
    expect(text).toContain('• Reloj Casio');
    expect(text).toContain('• Lámpara');
    expect(text).toContain('Total a pagar: $2,150 MXN');
    expect(text).toContain('Paga aquí: https://pagos.example/abc');
    // 18:00 UTC is 12:00 in Mexico City (UTC−6, no daylight saving since 2022).
    expect(text).toMatch(/Fecha límite: lunes, 23 de noviembre,? 12:00 p\. ?m\./);
    expect(text).toContain('https://martillo.mx/compras');
  });

  it('opens the first message by where the bill comes from: a show, a second chance, or a bill made by hand', () => {
    expect(reminderMessage('bill', { ...bill, source: 'secondChance' }, 'https://martillo.mx')).toContain('segunda oportunidad');
    expect(reminderMessage('bill', { ...bill, source: 'secondChance' }, 'https://martillo.mx')).toContain('rechazarlo en Mis compras');
    const byHand = reminderMessage('bill', bill, 'https://martillo.mx');
    expect(byHand).toContain('¡Hola Juana! Esta es tu cuenta:');
    expect(byHand).not.toContain('del show');
  });

  it('says which reminder it is', () => {
    expect(reminderMessage('afterLink', bill, 'https://martillo.mx')).toContain('Te recordamos tu cuenta pendiente');
    expect(reminderMessage('beforeDeadline', bill, 'https://martillo.mx')).toContain('Tu cuenta vence pronto');
  });

  it('makes a wa.me link to the number, or none without one', () => {
    const href = reminderWhatsappHref('+52 33 1234 5678', 'bill', bill, 'https://martillo.mx');
    expect(href?.startsWith('https://wa.me/523312345678?text=')).toBe(true);
    expect(decodeURIComponent(href?.split('text=')[1] ?? '')).toBe(reminderMessage('bill', bill, 'https://martillo.mx'));
    expect(reminderWhatsappHref(null, 'bill', bill, 'https://martillo.mx')).toBeNull();
  });

  it('gives the template its parameters: name, total, link, deadline', () => {
    expect(templateParameters(bill)).toEqual(['Juana', '$2,150 MXN', 'https://pagos.example/abc', formatDeadline(bill.deadlineAt)]);
  });
});
