import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import type esMX from './es-MX.json';
import esMXPublic from './es-MX.json?public';

export const DEFAULT_LANGUAGE = 'es-MX';

/**
 * Only es-MX ships in the first load, and only its public sections (parts.ts); the admin panel and
 * the Live Hub add the rest (loadPanelStrings). English is fetched if someone switches to it (below),
 * so no phone downloads it. Outside a Vite build (unit tests) `?public` is the whole file.
 */
export const resources = {
  'es-MX': { translation: esMXPublic },
} as const;

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof esMX };
  }
}

/** es-MX is the product's language; English exists for SPEC's quoted originals and for reference. */
export const i18nReady = i18next.use(initReactI18next).init({
  resources,
  lng: DEFAULT_LANGUAGE,
  fallbackLng: DEFAULT_LANGUAGE,
  defaultNS: 'translation',
  interpolation: { escapeValue: false },
  returnNull: false,
});

i18next.on('languageChanged', (lng) => {
  if (lng !== 'en' || i18next.hasResourceBundle('en', 'translation')) return;
  void import('./en.json').then((en) => {
    i18next.addResourceBundle('en', 'translation', en.default);
    void i18next.changeLanguage('en');
  });
});

/** The catalogue's panel sections (parts.ts), merged into es-MX; the panel and the Live Hub await it before they render. */
export async function loadPanelStrings(): Promise<void> {
  const panel = await import('./es-MX.json?panel');
  i18next.addResourceBundle(DEFAULT_LANGUAGE, 'translation', panel.default, true, false);
}

export default i18next;
