import { createHash } from 'node:crypto';
import type { OutputInfo, Sharp, SharpOptions } from 'sharp';
import { messages } from '../../messages.js';

/**
 * The share card's picture: 1200×630 (what WhatsApp, Facebook and X show large), a JPEG well under
 * 300 KB. The photo cover-cropped under a darkening gradient, or the brand's background; the title
 * (two lines at most, then an ellipsis), the seller, a date or price, a red EN VIVO badge when live
 * (a play mark for a replay) and the Martillo mark, drawn by an SVG composited with sharp (librsvg,
 * with the system's DejaVu or Liberation fonts).
 */

export const CARD_WIDTH = 1200;
export const CARD_HEIGHT = 630;

/** Bumped when the drawing changes, so every card's address changes with it (WhatsApp keeps images by URL). */
const DRAWING_VERSION = 1;

export interface CardPicture {
  title: string;
  seller: string;
  detail: string;
  live: boolean;
  /** The photo's address as stored, part of the hash: a new photo is a new picture. */
  photoUrl: string | null;
  /** A show's replay: a play mark is drawn, on its poster when it has one (drawn before `photoUrl`). */
  replay: boolean;
  /** The replay's poster in storage, and when the replay was made (made again, a new picture). */
  poster: { key: string; madeAt: number } | null;
}

/** A short hash of everything drawn: the picture's address changes exactly when the picture does. */
export function pictureHash(picture: CardPicture): string {
  const drawn: unknown[] = [DRAWING_VERSION, picture.title, picture.seller, picture.detail, picture.live, picture.photoUrl ?? ''];
  // Only a replay's card adds these, so no other card's address moves.
  if (picture.replay || picture.poster) drawn.push(picture.replay, picture.poster?.key ?? '', picture.poster?.madeAt ?? 0);
  return createHash('sha256').update(JSON.stringify(drawn)).digest('base64url').replace(/[-_]/g, '').slice(0, 10).toLowerCase();
}

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
/** Text as SVG content: markup characters escaped, and control characters (which XML forbids) dropped. */
export function escapeXml(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point.
  return text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '').replace(/[&<>"']/g, (c) => XML_ESCAPES[c] ?? c);
}

/** A character's advance in DejaVu Sans Bold, in ems, roughly: enough to wrap without measuring. */
function charWidth(c: string): number {
  if (" .,;:!¡|iIlj'’".includes(c)) return 0.34;
  if ('ftr()[]'.includes(c)) return 0.48;
  if ('mwMW@%'.includes(c)) return 0.95;
  if (/[A-ZÁÉÍÓÚÑÜ0-9]/.test(c)) return 0.74;
  return 0.64;
}
const textWidth = (text: string, size: number) => [...text].reduce((sum, c) => sum + charWidth(c), 0) * size;

/** Cuts a line to `width`, ending it with an ellipsis when it had to be cut. */
function fitLine(text: string, size: number, width: number): string {
  if (textWidth(text, size) <= width) return text;
  const chars = [...text];
  while (chars.length > 0 && textWidth(`${chars.join('').trimEnd()}…`, size) > width) chars.pop();
  return `${chars.join('').trimEnd()}…`;
}

/** Words wrapped to `width`, at most `maxLines` lines; what does not fit ends in an ellipsis. */
export function wrapText(text: string, size: number, width: number, maxLines: number): string[] {
  const words = text.replace(/\s+/g, ' ').trim().split(' ').filter(Boolean);
  const lines: string[] = [];
  let line = '';
  for (let i = 0; i < words.length; i++) {
    const word = words[i] as string;
    const next = line ? `${line} ${word}` : word;
    if (textWidth(next, size) <= width || !line) {
      line = next;
      continue;
    }
    if (lines.length === maxLines - 1) {
      lines.push(fitLine(`${line} ${words.slice(i).join(' ')}`, size, width));
      return lines;
    }
    lines.push(fitLine(line, size, width));
    line = word;
  }
  if (line) lines.push(fitLine(line, size, width));
  return lines;
}

const FONT = 'DejaVu Sans, Liberation Sans, Arial, sans-serif';
const MARGIN = 56;

/** The Martillo mark (the favicon's hammer) and the name, at the top right. */
function mark(): string {
  const size = 60;
  const x = CARD_WIDTH - MARGIN - size;
  return `<g transform="translate(${x} 44) scale(${size / 64})"><rect width="64" height="64" rx="14" fill="#9c2f1f"/><g transform="rotate(-40 32 32)"><rect x="14" y="14" width="30" height="14" rx="3" fill="#fff4e0"/><rect x="27" y="27" width="5" height="26" rx="2" fill="#fff4e0"/></g><rect x="10" y="50" width="26" height="5" rx="2" fill="#f2b441"/></g>
<text x="${x - 16}" y="86" text-anchor="end" font-family="${FONT}" font-weight="bold" font-size="34" fill="#ffffff">${escapeXml(messages.share.siteName)}</text>`;
}

function liveBadge(): string {
  const label = escapeXml(messages.share.liveBadge);
  const width = Math.round(textWidth(messages.share.liveBadge, 30) + 84);
  return `<g><rect x="${MARGIN}" y="44" width="${width}" height="60" rx="12" fill="#e03131"/><circle cx="${MARGIN + 30}" cy="74" r="10" fill="#ffffff"/>
<text x="${MARGIN + 52}" y="85" font-family="${FONT}" font-weight="bold" font-size="30" fill="#ffffff">${label}</text></g>`;
}

/** A replay's mark: a round play button above the title, as video players draw it. */
function playMark(): string {
  const cx = CARD_WIDTH / 2;
  const cy = 230;
  return `<g><circle cx="${cx}" cy="${cy}" r="72" fill="#000000" fill-opacity="0.55" stroke="#ffffff" stroke-width="6"/>
<path d="M ${cx - 22} ${cy - 38} L ${cx + 40} ${cy} L ${cx - 22} ${cy + 38} Z" fill="#ffffff"/></g>`;
}

/** The text layer, drawn over the photo or the brand's background. */
export function overlaySvg(picture: CardPicture, opts: { hasPhoto: boolean }): string {
  const width = CARD_WIDTH - 2 * MARGIN;
  const titleSize = 60;
  const title = wrapText(picture.title, titleSize, width - 24, 2);
  const seller = fitLine(picture.seller, 34, width);
  const detail = fitLine(picture.detail, 32, width);
  const detailY = CARD_HEIGHT - 56;
  const sellerY = detailY - 50;
  const lastTitleY = sellerY - 62;
  const titleLines = title.map((line, i) => `<tspan x="${MARGIN}" y="${lastTitleY - (title.length - 1 - i) * 72}">${escapeXml(line)}</tspan>`).join('');
  const shade = opts.hasPhoto
    ? `<linearGradient id="shade" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#000" stop-opacity="0.45"/><stop offset="0.35" stop-color="#000" stop-opacity="0.15"/><stop offset="0.6" stop-color="#000" stop-opacity="0.55"/><stop offset="1" stop-color="#000" stop-opacity="0.88"/></linearGradient>`
    : `<linearGradient id="shade" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#b8432f"/><stop offset="1" stop-color="#4a140b"/></linearGradient>`;
  // Without a photo: the brand's red, with the hammer large and faint on the right.
  const backdrop = opts.hasPhoto
    ? ''
    : `<g transform="translate(760 60) rotate(-40 200 200)" opacity="0.12"><rect x="80" y="80" width="240" height="112" rx="24" fill="#fff4e0"/><rect x="184" y="190" width="40" height="230" rx="16" fill="#fff4e0"/></g>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${CARD_WIDTH}" height="${CARD_HEIGHT}" viewBox="0 0 ${CARD_WIDTH} ${CARD_HEIGHT}">
<defs>${shade}</defs>
<rect width="${CARD_WIDTH}" height="${CARD_HEIGHT}" fill="url(#shade)"/>${backdrop}
${picture.live ? liveBadge() : ''}${picture.replay ? playMark() : ''}${mark()}
<text font-family="${FONT}" font-weight="bold" font-size="${titleSize}" fill="#ffffff">${titleLines}</text>
<text x="${MARGIN}" y="${sellerY}" font-family="${FONT}" font-size="34" fill="#ffffff" fill-opacity="0.92">${escapeXml(seller)}</text>
<text x="${MARGIN}" y="${detailY}" font-family="${FONT}" font-weight="bold" font-size="32" fill="#f2b441">${escapeXml(detail)}</text>
</svg>`;
}

/** Photos bigger than this (in pixels) are not decoded: the uploads are far smaller, anything else is not ours to draw. */
const MAX_INPUT_PIXELS = 50_000_000;

type Raw = { data: Buffer; info: OutputInfo };
type SharpFactory = (input?: Buffer | SharpOptions, options?: SharpOptions) => Sharp;

/** sharp (libvips) is loaded by the first card drawn: a server nobody shares a link of does not hold it. */
let library: Promise<SharpFactory> | null = null;
const loadSharp = () => {
  library ??= import('sharp').then((m) => m.default as unknown as SharpFactory);
  return library;
};

/** The picture's bottom layer, as raw pixels (encoded once, at the end). */
async function background(photo: Buffer | null): Promise<{ raw: Raw; hasPhoto: boolean }> {
  const sharp = await loadSharp();
  if (photo) {
    try {
      const raw = await sharp(photo, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' })
        .rotate()
        .resize(CARD_WIDTH, CARD_HEIGHT, { fit: 'cover', position: 'centre' })
        .removeAlpha()
        .raw()
        .toBuffer({ resolveWithObject: true });
      return { raw, hasPhoto: true };
    } catch {
      // An unreadable photo: the brand's background instead.
    }
  }
  const raw = await sharp({ create: { width: CARD_WIDTH, height: CARD_HEIGHT, channels: 3, background: '#9c2f1f' } })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { raw, hasPhoto: false };
}

/** The card as a JPEG (progressive, mozjpeg, quality 80; lower if a busy photo would pass 300 KB). */
export async function renderCard(picture: CardPicture, photo: Buffer | null): Promise<Buffer> {
  const sharp = await loadSharp();
  const { raw, hasPhoto } = await background(photo);
  const { data, info } = await sharp(raw.data, { raw: { width: raw.info.width, height: raw.info.height, channels: raw.info.channels } })
    .composite([{ input: Buffer.from(overlaySvg(picture, { hasPhoto })), top: 0, left: 0 }])
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  let jpeg = Buffer.alloc(0);
  for (const quality of [80, 68, 55]) {
    jpeg = await sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } })
      .jpeg({ quality, mozjpeg: true, progressive: true })
      .toBuffer();
    if (jpeg.length < MAX_CARD_BYTES) break;
  }
  return jpeg;
}

export const MAX_CARD_BYTES = 300 * 1024;
