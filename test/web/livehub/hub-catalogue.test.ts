import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import en from '../../../src/web/i18n/en.json';
import esMX from '../../../src/web/i18n/es-MX.json';

/** Every issue code the shared live schemas can produce (`error: 'code'`), read from the source. */
function issueCodes(): string[] {
  const source = readFileSync(new URL('../../../src/domain/live.ts', import.meta.url), 'utf8');
  const text = readFileSync(new URL('../../../src/domain/text.ts', import.meta.url), 'utf8');
  return [...new Set([...`${source}\n${text}`.matchAll(/error: '(\w+)'/g)].map((m) => m[1] as string))];
}

describe('the Live Hub catalogue', () => {
  it('has a Spanish message for every issue code of the live schemas', () => {
    const codes = issueCodes();
    expect(codes).toContain('whatsappInvalid');
    for (const code of codes) expect(esMX.livehub.errors, code).toHaveProperty(code);
  });

  it("keeps SPEC's strings verbatim", () => {
    const h = esMX.livehub;
    expect(h.title).toBe('Live Shopping');
    expect(h.backToAdmin).toBe('Volver a Admin');
    expect(h.header).toMatchObject({ more: 'Más', manageSessions: 'Gestionar sesiones', createSession: 'Crear sesión', addAuction: 'Agregar subasta' });
    expect(h.bar).toMatchObject({ load: 'Cargar', loaded: 'Sesión cargada', notFound: 'Sesión no encontrada' });
    expect(h.transmission.linkCopied).toBe('Enlace copiado al portapapeles');
    expect(h.timer).toMatchObject({ idle: 'Inactivo', running: 'En curso: {{time}}', finished: 'Finalizado', apply: 'Aplicar' });
    expect(h.lots).toMatchObject({
      upcoming: 'Próximos',
      past: 'Pasados / Finalizados',
      current: 'En subasta ahora',
      currentButton: 'Actual',
      setCurrent: 'Establecer actual',
      add: 'Añadir Lote',
      empty: 'No hay lotes.',
      removeConfirm: '¿Quitar este lote de la sesión? Esta acción no elimina la subasta.',
      removeFailed: 'No se pudo quitar el lote de la sesión',
    });
    expect(h.picker).toMatchObject({
      loading: 'Cargando…',
      empty: 'Sin resultados.',
      loadFailed: 'Error al cargar subastas.',
      searchFailed: 'Error al buscar.',
      unnamed: '(sin nombre)',
      addFailed: 'No se pudo añadir el lote. Verifica el ID.',
    });
    expect(h.create).toMatchObject({ title: 'Crear Sesión', submit: 'Crear', failed: 'No se pudo crear la sesión' });
    expect(h.manage).toMatchObject({ title: 'Sesiones en vivo', deleteConfirm: '¿Eliminar esta sesión?' });
    expect(h.edit).toMatchObject({
      title: 'Editar Sesión',
      chooseExisting: 'Elegir imagen existente',
      coverTooLarge: 'La imagen es muy grande. Máximo 2 MB.',
      saveFailed: 'No se pudo guardar los cambios.',
      coverRemoveFailed: 'No se pudo eliminar la portada.',
      coverSaveFailed: 'No se pudo guardar la portada.',
    });
    expect(h.crop.title).toBe('Ajustar portada');
    expect(h.existing.empty).toBe('No hay imágenes encontradas en los lotes.');
    expect(h.quick).toMatchObject({ title: 'Agregar subasta rápida', loginRequired: 'Inicio de sesión requerido' });
    expect(h.errors.whatsappInvalid).toBe('Enlace de WhatsApp inválido. Usa wa.me, chat.whatsapp.com o api.whatsapp.com');
    expect(h.noSessions).toBe('No hay sesiones.');
  });

  it('keeps the English originals SPEC quotes in en.json', () => {
    expect(en.livehub.quick.failed).toBe('Failed to create auction');
    expect(en.livehub.quick.created).toBe('Auction created: {{id}}');
  });
});
