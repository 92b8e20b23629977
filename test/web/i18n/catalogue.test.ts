import { describe, expect, it } from 'vitest';
import en from '../../../src/web/i18n/en.json';
import esMX from '../../../src/web/i18n/es-MX.json';
import { PROFILE_ERROR_KEYS } from '../../../src/web/lib/profile-form';

type Tree = { [key: string]: string | Tree };

function leaves(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(path, value);
    else for (const [k, v] of leaves(value, path)) out.set(k, v);
  }
  return out;
}

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

describe('i18n catalogues', () => {
  const es = leaves(esMX);
  const english = leaves(en);

  it('en.json has exactly the keys of es-MX.json', () => {
    expect([...english.keys()].sort()).toEqual([...es.keys()].sort());
  });

  it('every message is non-empty and uses the same placeholders in both languages', () => {
    for (const [key, text] of es) {
      expect(text.trim(), key).not.toBe('');
      expect(placeholders(english.get(key) ?? ''), key).toEqual(placeholders(text));
    }
  });

  it('has a Spanish message for every profile validation issue of ZProfileInput', () => {
    expect(Object.keys(esMX.profile.errors).sort()).toEqual([...PROFILE_ERROR_KEYS].sort());
  });

  it('keeps SPEC strings verbatim in es-MX and the English originals in en', () => {
    expect(esMX.common.loading).toBe('Cargando...');
    expect(esMX.auth.loginHeading).toBe('Inicio de sesión del Panel de Administración');
    expect(esMX.auth.unauthorizedTitle).toBe('No autorizado');
    expect(esMX.auth.unauthorizedMessage).toBe('No tienes permiso para ver esta página.');
    expect(esMX.auth.signInWithGoogle).toBe('Iniciar sesión con Google');
    expect(esMX.profile.title).toBe('Completa Tu Perfil');
    expect(esMX.profile.save).toBe('Guardar Perfil');
    expect(esMX.livehub.noSessions).toBe('No hay sesiones.');
    expect(en.profile.loading).toBe('Loading profile...');
    expect(en.profile.loadFailed).toBe('Failed to load profile. Please try again.');
    expect(en.profile.saveFailed).toBe('Failed to save profile. Please try again.');
    expect(en.profile.noUser).toBe('No user logged in.');
  });
});
