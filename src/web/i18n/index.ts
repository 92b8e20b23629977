import { useMemo, useSyncExternalStore } from 'react';
import type esMX from './es-MX.json';
import esMXPublic from './es-MX.json?public';

/**
 * The app's strings: the es-MX catalogue, `{{name}}` placeholders and plural forms (`key_one`,
 * `key_many`, `key_other`, chosen by Intl.PluralRules on `count`), the part of i18next this app
 * used, in a few hundred bytes instead of about 17 KB gzip on every page.
 *
 * Only es-MX ships in the first load, and only its public sections (parts.ts); a page used alone
 * (the live page, the checkout, the profile form) adds its own (addPageStrings), and the admin panel
 * and the Live Hub add the rest (loadPanelStrings). English is fetched if someone switches to it
 * (changeLanguage), so no phone downloads it. Unit tests split the file with the build's own plugin
 * (vitest.config.ts).
 */

export const DEFAULT_LANGUAGE = 'es-MX';

interface Catalogue {
  [key: string]: string | Catalogue;
}

/** Every string's key in the es-MX catalogue, dotted ('bidding.placeBid'). */
type LeafKeys<T, Prefix extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${Prefix}${K}` : LeafKeys<T[K], `${Prefix}${K}.`>;
}[keyof T & string];
type PluralForm = 'zero' | 'one' | 'two' | 'few' | 'many' | 'other';
/** A plural's forms are asked for by their common key, with `count`. */
type WithoutPluralForm<K extends string> = K extends `${infer Base}_${PluralForm}` ? Base : K;
type CatalogueKey = LeafKeys<typeof esMX>;
export type TranslationKey = CatalogueKey | WithoutPluralForm<CatalogueKey>;
export type TranslationValues = Readonly<Record<string, string | number>>;
export type TFunction = (key: TranslationKey, values?: TranslationValues) => string;

const bundles: Record<string, Catalogue> = { [DEFAULT_LANGUAGE]: structuredClone(esMXPublic) as Catalogue };
let language = DEFAULT_LANGUAGE;
/** Bumped when strings or the language change: every `t` is then a new function, and its users render again. */
let version = 0;
const listeners = new Set<() => void>();

function changed(): void {
  version++;
  for (const listener of listeners) listener();
}

function lookup(catalogue: Catalogue | undefined, key: string): string | undefined {
  let node: string | Catalogue | undefined = catalogue;
  for (const part of key.split('.')) {
    if (node === undefined || typeof node === 'string') return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}

const pluralRules = new Map<string, Intl.PluralRules>();
function pluralForm(lng: string, count: number): string {
  let rules = pluralRules.get(lng);
  if (!rules) {
    rules = new Intl.PluralRules(lng);
    pluralRules.set(lng, rules);
  }
  return rules.select(count);
}

function find(lng: string, key: string, count: number | undefined): string | undefined {
  const catalogue = bundles[lng];
  if (count !== undefined) {
    const plural = lookup(catalogue, `${key}_${pluralForm(lng, count)}`) ?? lookup(catalogue, `${key}_other`);
    if (plural !== undefined) return plural;
  }
  return lookup(catalogue, key);
}

/** The string for `key` in the current language (es-MX when it has none), placeholders filled; the key itself when no catalogue has it. */
export function translate(key: TranslationKey, values?: TranslationValues): string {
  const count = typeof values?.count === 'number' ? values.count : undefined;
  const text = find(language, key, count) ?? find(DEFAULT_LANGUAGE, key, count) ?? key;
  if (!values) return text;
  return text.replace(/\{\{\s*([\w.]+)\s*\}\}/g, (placeholder, name: string) => (name in values ? String(values[name]) : placeholder));
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
const currentVersion = () => version;

/** `t` for a component: it renders again when the strings or the language change. */
export function useTranslation(): { t: TFunction } {
  const current = useSyncExternalStore(subscribe, currentVersion, currentVersion);
  // A new function per version, so memos and effects that depend on `t` follow the strings.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `current` is the point: a new `t` per version
  const t = useMemo<TFunction>(() => (key, values) => translate(key, values), [current]);
  return { t };
}

/** Adds `strings` to a language's catalogue (a deep merge: later sections win). */
function addStrings(lng: string, strings: Catalogue): void {
  const merge = (into: Catalogue, from: Catalogue) => {
    for (const [key, value] of Object.entries(from)) {
      const existing = into[key];
      if (typeof value !== 'string' && existing !== undefined && typeof existing !== 'string') merge(existing, value);
      else into[key] = typeof value === 'string' ? value : structuredClone(value);
    }
  };
  const catalogue = bundles[lng] ?? {};
  bundles[lng] = catalogue;
  merge(catalogue, strings);
  changed();
}

/** A public page's own section (parts.ts, PAGE_NAMESPACES), added by its module before it renders. */
export function addPageStrings(strings: Record<string, unknown>): void {
  addStrings(DEFAULT_LANGUAGE, strings as Catalogue);
}

/** The catalogue's panel sections (parts.ts), merged into es-MX; the panel and the Live Hub await it before they render. */
export async function loadPanelStrings(): Promise<void> {
  const panel = await import('./es-MX.json?panel');
  addStrings(DEFAULT_LANGUAGE, panel.default as Catalogue);
}

/** Switches the language; English is fetched the first time. */
export async function changeLanguage(lng: 'es-MX' | 'en'): Promise<void> {
  if (lng === 'en' && !bundles.en) addStrings('en', (await import('./en.json')).default as Catalogue);
  language = lng;
  changed();
}
