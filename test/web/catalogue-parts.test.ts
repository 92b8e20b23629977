import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import esMX from '../../src/web/i18n/es-MX.json';
import { PUBLIC_NAMESPACES } from '../../src/web/i18n/parts';

const WEB = fileURLToPath(new URL('../../src/web/', import.meta.url));

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
  ...['App.tsx', 'main.tsx', 'routes.ts', 'lib/profile-form.ts'].map((file) => path.join(WEB, file)),
  ...['auction-status-badge.tsx', 'brand-mark.tsx', 'error-screen.tsx', 'loading-screen.tsx', 'profile-form.tsx', 'profile-modal.tsx', 'site-footer.tsx'].map(
    (file) => path.join(WEB, 'components', file),
  ),
];

/** The catalogue sections a file names in quoted keys ('bidding.errors.x', `auctions.status.${s}`). */
function sectionsNamed(source: string): string[] {
  const sections = Object.keys(esMX);
  const found = new Set<string>();
  for (const match of source.matchAll(/['`"]([a-zA-Z]+)\.[a-zA-Z$]/g)) {
    if (match[1] && sections.includes(match[1])) found.add(match[1]);
  }
  return [...found];
}

describe("the catalogue's public part (src/web/i18n/parts.ts)", () => {
  it('names sections that exist', () => {
    for (const section of PUBLIC_NAMESPACES) expect(Object.keys(esMX), section).toContain(section);
  });

  it('holds every section the public pages and the shell ask for', () => {
    const missing = PUBLIC_SOURCES.flatMap((file) =>
      sectionsNamed(readFileSync(file, 'utf8'))
        .filter((section) => !PUBLIC_NAMESPACES.includes(section))
        .map((section) => `${path.relative(WEB, file)}: ${section}`),
    );
    expect(missing).toEqual([]);
  });
});
