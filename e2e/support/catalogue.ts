import es from '../../src/web/i18n/es-MX.json' with { type: 'json' };

/** The es-MX catalogue: specs look up the UI's words here, never a copy of them. */
export const t = es;

/** Fills `{{name}}` placeholders as the app does (src/web/i18n). */
export function fill(text: string, values: Record<string, string>): string {
  return text.replace(/\{\{(\w+)\}\}/g, (_, k: string) => values[k] ?? '');
}
