import { storePath } from '../../domain/screens.js';

/** The seller's page as the public session and auction answers carry it (`store`), or null. */
export interface StoreRef {
  slug: string;
  name: string;
}

/** The answer's `store`, when it has a usable one (an older server's answer has none). */
export function storeOf(answer: object): StoreRef | null {
  const store = (answer as { store?: unknown }).store;
  if (typeof store !== 'object' || store === null) return null;
  const { slug, name } = store as Partial<StoreRef>;
  return typeof slug === 'string' && slug !== '' && typeof name === 'string' ? { slug, name } : null;
}

/** The link to the seller's page, /tienda/{slug}. */
export function storeHref(store: StoreRef): string {
  return storePath(store.slug);
}
