import { describe, expect, it } from 'vitest';
import { lineInterval, mayManageModerators, moderatorPower, paceRefusal, repeatKey } from '../../../../src/server/features/chat/policies.js';

/** Who moderates a show's chat and what the pace rules refuse, decided from facts alone. */

const session = { id: 's1', status: 'live', companyId: 'acme', sellerId: 'seller-1' };
const ended = { ...session, status: 'ended' };
const seller = { id: 'seller-1', roles: ['seller' as const], profileCompanyId: 'acme', companyId: 'acme' };
const companyAdmin = { id: 'admin-1', roles: ['admin' as const], profileCompanyId: 'acme', companyId: 'acme' };
const platformAdmin = { id: 'root', roles: ['admin' as const], profileCompanyId: null, companyId: 'root' };
const otherAdmin = { id: 'admin-2', roles: ['admin' as const], profileCompanyId: 'otra', companyId: 'otra' };
const coSeller = { id: 'seller-2', roles: ['seller' as const], profileCompanyId: 'acme', companyId: 'acme' };
const buyer = { id: 'buyer-1', roles: ['buyer' as const], profileCompanyId: null, companyId: 'buyer-1' };

describe('moderatorPower', () => {
  it('makes the seller, the company’s admins and platform admins owners, live or ended', () => {
    for (const actor of [seller, companyAdmin, platformAdmin]) {
      expect(moderatorPower(actor, session, { isAppointed: false })).toBe('owner');
      expect(moderatorPower(actor, ended, { isAppointed: false })).toBe('owner');
    }
  });

  it('gives an appointed moderator power until the show ends, and nobody else any', () => {
    expect(moderatorPower(buyer, session, { isAppointed: true })).toBe('appointed');
    expect(moderatorPower(buyer, ended, { isAppointed: true })).toBeNull();
    for (const actor of [buyer, coSeller, otherAdmin]) expect(moderatorPower(actor, session, { isAppointed: false })).toBeNull();
    expect(moderatorPower(null, session, { isAppointed: true })).toBeNull();
  });

  it('leaves a seller moved to another company powerless in their old company’s show', () => {
    expect(moderatorPower({ ...seller, profileCompanyId: 'otra', companyId: 'otra' }, session, { isAppointed: false })).toBeNull();
  });

  it('lets only editors manage moderators', () => {
    expect(mayManageModerators(seller, session)).toBe(true);
    expect(mayManageModerators(companyAdmin, session)).toBe(true);
    expect(mayManageModerators(coSeller, session)).toBe(false);
    expect(mayManageModerators(otherAdmin, session)).toBe(false);
  });
});

describe('pace', () => {
  it('waits 2 seconds, or the slow mode when longer, moderators only the 2', () => {
    expect(lineInterval({ slowModeSeconds: 0, isModerator: false })).toBe(2);
    expect(lineInterval({ slowModeSeconds: 30, isModerator: false })).toBe(30);
    expect(lineInterval({ slowModeSeconds: 30, isModerator: true })).toBe(2);
  });

  it('names the longer wait first (the slow mode, else the pace), then the repeat, with whole seconds to wait', () => {
    expect(paceRefusal({ elapsedMs: 500, slowModeSeconds: 10, isModerator: false, sameText: true })).toEqual({ code: 'CHAT_SLOW_MODE', waitSeconds: 10 });
    expect(paceRefusal({ elapsedMs: 500, slowModeSeconds: 0, isModerator: false, sameText: true })).toEqual({ code: 'CHAT_RATE_LIMITED', waitSeconds: 2 });
    expect(paceRefusal({ elapsedMs: 500, slowModeSeconds: 30, isModerator: true, sameText: false })).toEqual({ code: 'CHAT_RATE_LIMITED', waitSeconds: 2 });
    expect(paceRefusal({ elapsedMs: 1999, slowModeSeconds: 0, isModerator: false, sameText: false })).toEqual({ code: 'CHAT_RATE_LIMITED', waitSeconds: 1 });
    expect(paceRefusal({ elapsedMs: 3_000, slowModeSeconds: 10, isModerator: false, sameText: true })).toEqual({ code: 'CHAT_SLOW_MODE', waitSeconds: 7 });
    expect(paceRefusal({ elapsedMs: 3_000, slowModeSeconds: 10, isModerator: true, sameText: true })).toEqual({ code: 'CHAT_DUPLICATE' });
    expect(paceRefusal({ elapsedMs: 3_000, slowModeSeconds: 0, isModerator: false, sameText: false })).toBeNull();
  });

  it('compares lines trimmed, in any case, and without the punctuation that would make a repeat look new', () => {
    expect(repeatKey('  ¡VENDIDO!  ')).toBe(repeatKey('¡vendido!'));
    expect(repeatKey('Cafe\u0301')).toBe(repeatKey('Café'));
    // An exclamation mark more was the easiest way round the rule.
    expect(repeatKey('hola')).toBe(repeatKey('hola!'));
    expect(repeatKey('hola')).toBe(repeatKey('¡¡Hola!!'));
    expect(repeatKey('hola')).not.toBe(repeatKey('hola a todos'));
    // A line of only signs or emoji still compares with something.
    expect(repeatKey('???')).not.toBe(repeatKey('🔥'));
    expect(repeatKey('🔥')).toBe(repeatKey('🔥'));
  });
});
