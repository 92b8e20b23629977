import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from './en.json';
import esMX from './es-MX.json';

export const DEFAULT_LANGUAGE = 'es-MX';

export const resources = {
  'es-MX': { translation: esMX },
  en: { translation: en },
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

export default i18next;
