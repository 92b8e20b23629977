import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import esMX from '../../../src/web/i18n/es-MX.json';
import { PAGE_NAMESPACES, PUBLIC_NAMESPACES } from '../../../src/web/i18n/parts';

const WEB = fileURLToPath(new URL('../../../src/web/', import.meta.url));

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourcesUnder(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** The public pages, the shell and what they share: they load only the catalogue's public part. */
const PUBLIC_SOURCES = [
  ...sourcesUnder(path.join(WEB, 'public')),
  ...sourcesUnder(path.join(WEB, 'api')),
  ...sourcesUnder(path.join(WEB, 'components/site-header')),
  ...['App.tsx', 'main.tsx', 'routes.ts', 'lib/profile-form.ts'].map((file) => path.join(WEB, file)),
  ...[
    'auction-status-badge.tsx',
    'brand-mark.tsx',
    'error-screen.tsx',
    'loading-screen.tsx',
    'profile-form.tsx',
    'profile-modal.tsx',
    'share-button.tsx',
    'site-footer.tsx',
  ].map((file) => path.join(WEB, 'components', file)),
];

/** The catalogue sections a file names in quoted keys, two levels deep ('bidding.errors', `auctions.status.${s}`). */
function sectionsNamed(source: string): string[] {
  const sections = Object.keys(esMX);
  const found = new Set<string>();
  for (const match of source.matchAll(/['`"]([a-zA-Z]+)\.([a-zA-Z]+)/g)) {
    if (match[1] && sections.includes(match[1])) found.add(`${match[1]}.${match[2]}`);
  }
  return [...found];
}

const inFirstLoad = (named: string) => PUBLIC_NAMESPACES.some((section) => named === section || named.startsWith(`${section}.`));

/** The page section a file may use: the page's (or form's) own files, which load with the module that adds it. */
function pageSectionOf(file: string): string | undefined {
  const relative = path.relative(WEB, file);
  // The chat shows on the live page only (its slots), so it reads the live page's section.
  if (relative.startsWith('public/live') || relative.startsWith('public/chat')) return 'live';
  if (relative.startsWith('public/pay')) return 'checkout';
  if (relative.startsWith('public/purchases')) return 'purchases';
  if (relative.startsWith('public/sell')) return 'sell';
  if (relative.startsWith('public/home')) return 'home';
  if (relative.startsWith('public/search')) return 'search';
  if (relative.startsWith('public/store')) return 'store';
  if (relative.startsWith('public/alerts')) return 'alerts';
  if (relative === 'public/prebids/prebid-box.tsx') return 'prebids';
  if (relative.startsWith('components/profile-') || relative === 'lib/profile-form.ts') return 'profile';
  return undefined;
}

describe("the catalogue's public part (src/web/i18n/parts.ts)", () => {
  it('names sections that exist', () => {
    for (const section of [...PUBLIC_NAMESPACES, ...Object.keys(PAGE_NAMESPACES)]) {
      const [top = '', sub] = section.split('.');
      const node = (esMX as Record<string, Record<string, unknown>>)[top];
      expect(node, section).toBeDefined();
      if (sub) expect(Object.keys(node ?? {}), section).toContain(sub);
    }
  });

  it('holds every section the public pages and the shell ask for, or their page adds it', () => {
    const missing = PUBLIC_SOURCES.flatMap((file) =>
      sectionsNamed(readFileSync(file, 'utf8'))
        .filter((named) => !inFirstLoad(named) && named.split('.')[0] !== pageSectionOf(file))
        .map((named) => `${path.relative(WEB, file)}: ${named}`),
    );
    expect(missing).toEqual([]);
  });

  it("each page section is added by its page's module before it renders", () => {
    for (const [section, file] of Object.entries(PAGE_NAMESPACES)) {
      const source = readFileSync(path.join(WEB, file), 'utf8');
      expect(source, file).toMatch(new RegExp(`import (\\w+) from '[./]*i18n/es-MX\\.json\\?section=${section}';[\\s\\S]*\\naddPageStrings\\(\\1\\);`));
    }
  });
});
