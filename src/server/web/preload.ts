import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, gzipSync, constants as zlib } from 'node:zlib';
import { BID_PAGE_DEFAULT } from '../../domain/bid-rules.js';
import { isUuid } from '../../domain/ids.js';
import { type Screen, screenForPath } from '../../domain/screens.js';
import { firstSearchUrl } from '../../domain/search-links.js';

const HOME_API = '/api/home';

/**
 * index.html per path, with what the page's first paint waits for announced in its head, so the
 * browser fetches it alongside the entry script instead of after it (a phone on 3G would otherwise
 * wait one round trip per chunk before the first paint):
 * - `<link rel="modulepreload">` for the screen's lazy chunk and the chunks it imports (and a style
 *   preload for their CSS), from Vite's manifest; the entry's own imports are preloaded by Vite already.
 * - `<link rel="preload" as="fetch">` for the API reads the page starts with, only for a path whose id
 *   is a UUID. The web client's `fetch` (same URL, GET, credentials 'same-origin', which `crossorigin`
 *   (anonymous) asks for too; without it Chromium refuses the match) takes the preloaded
 *   answer instead of asking again. Tags only: the CSP allows no inline script.
 */

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

/**
 * The source module each public screen loads lazily (src/web/App.tsx). The admin panel and the Live
 * Hub get none: measured, preloading the panel's larger chunks moved its compile work ahead of the
 * entry's and made its first paint later, not earlier.
 */
const SCREEN_SOURCES: Partial<Record<Screen['kind'], string>> = {
  auction: 'src/web/public/auction-page.tsx',
  live: 'src/web/public/live-page.tsx',
  pay: 'src/web/public/pay-page.tsx',
  home: 'src/web/public/home/home-page.tsx',
  search: 'src/web/public/search/search-page.tsx',
  store: 'src/web/public/store/store-page.tsx',
  alerts: 'src/web/public/alerts/alerts-page.tsx',
  sell: 'src/web/public/sell/sell-page.tsx',
};

const ATTR_ESCAPES: Record<string, string> = { '&': '&amp;', '"': '&quot;', "'": '&#39;', '<': '&lt;', '>': '&gt;' };
/** Escapes a value for a double-quoted HTML attribute. */
export function escapeAttr(value: string): string {
  return value.replace(/[&"'<>]/g, (c) => ATTR_ESCAPES[c] ?? c);
}

/** Only plain asset paths from the manifest are announced (a hashed file under assets/). */
const ASSET_FILE = /^assets\/[A-Za-z0-9._-]+\.(js|css)$/;

/** The script and style files a screen's chunk needs beyond what the entry already loads. */
export function screenAssets(manifest: Manifest, kind: Screen['kind']): { scripts: string[]; styles: string[] } {
  const entries = Object.entries(manifest).filter(([, chunk]) => chunk.isEntry);
  // What the entry pulls in statically is preloaded by Vite's own tags in index.html.
  const loaded = new Set<string>();
  const loadedCss = new Set<string>();
  const walk = (key: string, into: Set<string>, css: Set<string>) => {
    if (into.has(key)) return;
    const chunk = manifest[key];
    if (!chunk) return;
    into.add(key);
    for (const file of chunk.css ?? []) css.add(file);
    for (const dep of chunk.imports ?? []) walk(dep, into, css);
  };
  for (const [key] of entries) walk(key, loaded, loadedCss);
  const source = SCREEN_SOURCES[kind];
  if (!source || !manifest[source]) return { scripts: [], styles: [] };
  const mine = new Set<string>();
  const mineCss = new Set<string>();
  // The entry's chunks count as seen, so the walk stops at them.
  const seen = new Set(loaded);
  const visit = (key: string) => {
    if (seen.has(key)) return;
    const chunk = manifest[key];
    if (!chunk) return;
    seen.add(key);
    mine.add(chunk.file);
    for (const file of chunk.css ?? []) if (!loadedCss.has(file)) mineCss.add(file);
    for (const dep of chunk.imports ?? []) visit(dep);
  };
  visit(source);
  return { scripts: [...mine].filter((f) => ASSET_FILE.test(f)), styles: [...mineCss].filter((f) => ASSET_FILE.test(f)) };
}

/** The API reads a screen starts with, as its web client asks for them (same URL, byte for byte). */
export function screenFetches(screen: Screen): string[] {
  switch (screen.kind) {
    case 'auction':
      if (!isUuid(screen.auctionId)) return [];
      return [`/api/auctions/${screen.auctionId}`, `/api/auctions/${screen.auctionId}/bids?limit=${BID_PAGE_DEFAULT}`, '/api/me'];
    case 'live':
      // Not the chat's lines: the page reads them once it is in the show's room, so no line falls
      // between the read and the room's events (src/web/api/chat.ts); an answer fetched with the HTML
      // would be older than the join, and a line written in between would never show.
      return screen.sessionId && isUuid(screen.sessionId) ? [`/api/live-sessions/${screen.sessionId}`, '/api/config', '/api/me'] : [];
    case 'pay':
      return isUuid(screen.paymentId) ? [`/api/pay/${screen.paymentId}`, '/api/config'] : [];
    default:
      return [];
  }
}

/**
 * The API reads whose answers a screen's first paint needs, sent inside the HTML (static.ts) so a
 * cold load paints without a spinner: each address exactly as the page's client asks for it
 * (src/web/api/initial-data.ts matches it byte for byte). `search` is the page address's query
 * (`?q=…`), which the search page reads.
 */
export function initialDataUrls(screen: Screen, search = ''): string[] {
  if (screen.kind === 'home') return [HOME_API];
  // Only a slug's own characters (slugify's): nothing a crafted link could turn into another API path.
  if (screen.kind === 'store') return /^[A-Za-z0-9_-]{1,100}$/.test(screen.slug) ? [`/api/sellers/${encodeURIComponent(screen.slug)}`] : [];
  if (screen.kind === 'search') {
    // The category chips come from the home's answer; the results from the first search, when the
    // link carries one the page would send (the address is built by the page's own rule, encoded).
    const first = firstSearchUrl(search);
    return first ? [HOME_API, first] : [HOME_API];
  }
  return [];
}

/**
 * A JSON answer as a data block (`type="application/json"`: never run, so the CSP's no-inline-script
 * rule holds). Every `<` is written `\u003c`, so no `</script>` or `<!--` in the data can end or
 * bend the element, and U+2028/U+2029 are escaped too: the text stays the same JSON.
 */
export function dataBlock(url: string, json: string): string {
  const safe = json
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
  return `<script type="application/json" data-initial-url="${escapeAttr(url)}">${safe}</script>`;
}

const moduleTag = (file: string) => `<link rel="modulepreload" crossorigin href="/${escapeAttr(file)}">`;
const styleTag = (file: string) => `<link rel="preload" as="style" crossorigin href="/${escapeAttr(file)}">`;
const fetchTag = (url: string) => `<link rel="preload" as="fetch" crossorigin href="${escapeAttr(url)}">`;

export type Encoding = 'br' | 'gzip' | 'identity';

/** The encoding an Accept-Encoding header weighs highest among brotli and gzip (`*` counts for both). */
export function negotiateEncoding(header: string | undefined): Encoding {
  if (!header) return 'identity';
  const weights = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    weights.set(name, q === undefined ? 1 : Number(q));
  }
  const weight = (name: string) => weights.get(name) ?? weights.get('*') ?? 0;
  const br = weight('br');
  const gzip = weight('gzip');
  if (br > 0 && br >= gzip) return 'br';
  if (gzip > 0) return 'gzip';
  return 'identity';
}

/** What a request adds to the page: its own head (title, description, link preview) and what goes before `</body>`. */
export interface PageExtras {
  /** Replaces index.html's own `<title>` and description. */
  head?: string;
  bodyEnd?: string;
}

export interface IndexPages {
  /** index.html for a path (the screen's preloads in its head, and the request's extras), encoded as asked. */
  render(pathname: string, accept: string | undefined, extras?: PageExtras): { body: Buffer; encoding: Encoding };
}

/** index.html without its own title and description, for a page that brings its own. */
function withoutGenericHead(html: string): string {
  return html.replace(/<title>[^<]*<\/title>\s*/i, '').replace(/<meta\s+name="description"[^>]*>\s*/i, '');
}

/** Reads index.html and the manifest once; the HTML with each screen kind's chunk preloads is kept. */
export function indexPages(distDir: string): IndexPages {
  const html = readFileSync(path.join(distDir, 'index.html'), 'utf8');
  const manifestFile = path.join(distDir, '.vite/manifest.json');
  const manifest: Manifest = existsSync(manifestFile) ? (JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest) : {};
  const headEnd = html.indexOf('</head>');
  const bare = withoutGenericHead(html);
  const bareHeadEnd = bare.indexOf('</head>');
  const perKind = new Map<Screen['kind'], string>();
  const chunkTags = (kind: Screen['kind']) => {
    let tags = perKind.get(kind);
    if (tags === undefined) {
      const { scripts, styles } = screenAssets(manifest, kind);
      tags = [...scripts.map(moduleTag), ...styles.map(styleTag)].join('');
      perKind.set(kind, tags);
    }
    return tags;
  };
  return {
    render(pathname, accept, extras = {}) {
      const screen = screenForPath(pathname);
      const own = extras.head !== undefined && bareHeadEnd >= 0;
      const template = own ? bare : html;
      const end = own ? bareHeadEnd : headEnd;
      const tags = end < 0 ? '' : (extras.head ?? '') + screenFetches(screen).map(fetchTag).join('') + chunkTags(screen.kind);
      let text = tags ? template.slice(0, end) + tags + template.slice(end) : template;
      if (extras.bodyEnd) {
        const bodyEnd = text.lastIndexOf('</body>');
        text = bodyEnd < 0 ? text + extras.bodyEnd : text.slice(0, bodyEnd) + extras.bodyEnd + text.slice(bodyEnd);
      }
      const encoding = negotiateEncoding(accept);
      const raw = Buffer.from(text);
      if (encoding === 'br') {
        return { encoding, body: brotliCompressSync(raw, { params: { [zlib.BROTLI_PARAM_QUALITY]: 6, [zlib.BROTLI_PARAM_SIZE_HINT]: raw.length } }) };
      }
      if (encoding === 'gzip') return { encoding, body: gzipSync(raw, { level: 9 }) };
      return { encoding, body: raw };
    },
  };
}
