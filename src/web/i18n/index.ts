import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import esMX from './es-MX.json';

export const DEFAULT_LANGUAGE = 'es-MX';

/** Only es-MX ships in the bundle: English is fetched if someone switches to it (below), so no phone downloads it. */
export const resources = {
  'es-MX': { translation: esMX },
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

export default i18next;
