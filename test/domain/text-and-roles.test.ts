import { describe, expect, it } from 'vitest';
import { canUsePanel, effectiveCompanyId, isAdmin } from '../../src/domain/role-rules.js';
import { foldText, nameTokens } from '../../src/domain/text.js';

describe('foldText and nameTokens', () => {
  it('ignores accents and case', () => {
    expect(foldText('  Bicicléta   ÑANDÚ ')).toBe('bicicleta nandu');
    expect(foldText('Bicicléta')).toBe(foldText('bicicleta'));
  });

  it('keeps up to 10 distinct words of a name', () => {
    expect(nameTokens('Reloj Casio G-Shock, reloj original')).toEqual(['reloj', 'casio', 'g', 'shock', 'original']);
    expect(nameTokens('a b c d e f g h i j k l')).toHaveLength(10);
  });
});

describe('roles', () => {
  it('opens the panel to admins and sellers only (SPEC §6)', () => {
    expect(canUsePanel(['admin'])).toBe(true);
    expect(canUsePanel(['seller', 'buyer'])).toBe(true);
    expect(canUsePanel(['buyer'])).toBe(false);
    expect(canUsePanel([])).toBe(false);
    expect(isAdmin(['seller'])).toBe(false);
  });

  it('falls back to the user id for the company', () => {
    expect(effectiveCompanyId('uid-1', null)).toBe('uid-1');
    expect(effectiveCompanyId('uid-1', '  ')).toBe('uid-1');
    expect(effectiveCompanyId('uid-1', 'acme')).toBe('acme');
  });
});
