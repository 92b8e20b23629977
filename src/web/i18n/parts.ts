/**
 * The sections of the catalogue that the shell, the auction page and the bid flow use (a section,
 * or one level down: 'auctions.status'): the build ships these in the first load
 * (`./es-MX.json?public`), a page's own sections with that page (PAGE_NAMESPACES) and the rest with
 * the admin panel and the Live Hub (`?panel`), so a buyer's phone does not download the panel's
 * strings. vite.config.ts splits the file; test/web/i18n/catalogue-parts.test.ts checks that
 * public code asks only for these sections or its page's.
 */
export const PUBLIC_NAMESPACES: readonly string[] = [
  'common',
  'footer',
  'auth',
  'auctions.status',
  'publicAuction',
  'bidding',
  // A pre-bid's notices when its show starts; the form's own strings come with it (below).
  'prebids.notice',
  'prebids.reason',
  'unpaid.buyer',
  'purchases.nav',
  // The buyers' header (components/site-header) on every public page, and its bell.
  'header',
  'bell',
  // Compartir: on the auction page, the live page and a seller's page.
  'share',
];

/**
 * Sections that one public page (or dialog) alone uses: its module brings them
 * (`./es-MX.json?section=live`) and adds them (addPageStrings) before it renders, so the auction page
 * does not carry the live page's or the checkout's strings. The panel's part holds them too.
 */
export const PAGE_NAMESPACES = {
  live: 'public/live-page.tsx',
  checkout: 'public/pay-page.tsx',
  profile: 'components/profile-form.tsx',
  purchases: 'public/purchases/purchases-page.tsx',
  sell: 'public/sell/sell-page.tsx',
  home: 'public/home/home-page.tsx',
  search: 'public/search/search-page.tsx',
  store: 'public/store/store-page.tsx',
  alerts: 'public/alerts/alerts-page.tsx',
  // Seguir, Avísame, the calendar and the alerts' offer: the buttons' own module brings them.
  follow: 'components/follow/strings.ts',
  pushPrompt: 'components/follow/strings.ts',
  // The pre-bid form, fetched when a lot waiting to open shows it (public/prebids/prebid-places.tsx).
  prebids: 'public/prebids/prebid-box.tsx',
} as const;

/** The part of `catalogue` that `sections` name: whole sections ('bidding') or one level down ('auctions.status'). */
export function pickSections(catalogue: Record<string, unknown>, sections: readonly string[]): Record<string, unknown> {
  const part: Record<string, Record<string, unknown> | unknown> = {};
  for (const section of sections) {
    const [top = '', sub] = section.split('.');
    if (!(top in catalogue)) continue;
    if (sub === undefined) part[top] = catalogue[top];
    else {
      const parent = catalogue[top] as Record<string, unknown>;
      if (sub in parent) part[top] = { ...(part[top] as Record<string, unknown> | undefined), [sub]: parent[sub] };
    }
  }
  return part;
}
