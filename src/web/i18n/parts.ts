/**
 * The top-level sections of the catalogue that the shell and the public pages (auction, live, pay,
 * and the dialogs they open) use: the build ships these in the first load (`./es-MX.json?public`)
 * and the rest with the admin panel and the Live Hub (`?panel`), so a buyer's phone does not
 * download the panel's strings (issue 14). vite.config.ts splits the file; test/web/catalogue-parts.test.ts
 * checks that public code asks only for these sections.
 */
export const PUBLIC_NAMESPACES: readonly string[] = ['common', 'footer', 'auth', 'auctions', 'publicAuction', 'bidding', 'live', 'checkout', 'profile'];
