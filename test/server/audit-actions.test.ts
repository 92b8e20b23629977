import { describe, expect, it } from 'vitest';
import { AUDIT_ACTIONS, type AuditAction, type AuditEntry } from '../../src/server/audit.js';

/**
 * The audit log's actions keep one spelling each, and each records its own shape: a payload, an
 * entity or an action that is not the action's does not compile (`npm run typecheck` checks the
 * `@ts-expect-error` lines below: each must be an error).
 */

/** What recordAudit takes, without a database. */
const entry = <K extends AuditAction>(e: AuditEntry<K>): AuditEntry<K> => e;

describe('audit actions', () => {
  it('are spelled area.verb, each part in snake_case, and each area one way (no payment beside payments)', () => {
    expect(AUDIT_ACTIONS.length).toBeGreaterThan(50);
    for (const action of AUDIT_ACTIONS) expect(action).toMatch(/^[a-z]+(_[a-z]+)*(\.[a-z]+(_[a-z]+)*)+$/);
    const areas = new Set(AUDIT_ACTIONS.map((action) => action.split('.')[0] as string));
    for (const area of areas) expect(areas.has(`${area}s`), `${area} and ${area}s`).toBe(false);
  });

  it('take each action’s own entity and payload, and nothing else', () => {
    const rename = entry({ by: null, action: 'category.rename', entityType: 'category', entityId: 'c1', before: { name: 'A' }, after: { name: 'B' } });
    expect(rename.after).toEqual({ name: 'B' });
    const news = entry({
      by: { actor: null, requestId: 'r1' },
      action: 'payment.provider.approved',
      entityType: 'payment',
      entityId: 'p1',
      before: { paymentStatus: 'pending', providerStatus: null, flagged: false },
      after: { paymentStatus: 'paid', providerStatus: 'approved', flagged: false, providerPaymentId: '9', amount: 100 },
    });
    expect(news.by?.requestId).toBe('r1');

    // @ts-expect-error a rename records names, not prices
    entry({ by: null, action: 'category.rename', entityType: 'category', entityId: 'c1', after: { price: 3 } });
    // @ts-expect-error a category's rename is about a category, not an auction
    entry({ by: null, action: 'category.rename', entityType: 'auction', entityId: 'c1' });
    // @ts-expect-error a creation records no before
    entry({ by: null, action: 'category.create', entityType: 'category', entityId: 'c1', before: { name: 'A' } });
    // @ts-expect-error a deletion records no after
    entry({ by: null, action: 'auction.delete', entityType: 'auction', entityId: 'a1', after: { name: 'A', companyId: 'x' } });
    // @ts-expect-error one spelling per action: the older camelCase one is gone
    entry({ by: null, action: 'payment.addAuctions', entityType: 'payment', entityId: 'p1' });
    // @ts-expect-error a provider's news names one of the provider's statuses
    entry({ by: null, action: 'payment.provider.lost', entityType: 'payment', entityId: 'p1' });
    // @ts-expect-error an entity the audit log does not know
    entry({ by: null, action: 'user.roles', entityType: 'usuario', entityId: 'u1' });
  });
});
