import sharp from 'sharp';

/**
 * Product pictures for the demo: a gradient in the category's colours, a simple white
 * silhouette of the kind of thing, and the item's name in large type. The background and
 * silhouette are rendered once per category and view; each picture only adds its own text.
 */

export const ART_SIDE = 800;

export type Shape =
  | 'headphones'
  | 'phone'
  | 'laptop'
  | 'watch'
  | 'ring'
  | 'shirt'
  | 'sneaker'
  | 'medal'
  | 'bear'
  | 'gamepad'
  | 'lamp'
  | 'hammer'
  | 'ball'
  | 'bicycle'
  | 'vase'
  | 'key'
  | 'guitar';

export interface Palette {
  /** Light and dark ends of the background gradient. */
  from: string;
  to: string;
}

export interface ArtSpec {
  /** Which category's base art; also the cache key together with `view`. */
  categoryKey: string;
  categoryName: string;
  palette: Palette;
  shape: Shape;
  /** 0: the cover (name), 1: a closer view (brand and condition), 2: a third view (a detail line). */
  view: 0 | 1 | 2;
  title: string;
  subtitle?: string | null;
}

const FONT = `'DejaVu Sans', 'Liberation Sans', Arial, Helvetica, sans-serif`;

/** Each silhouette is drawn in a 400×400 box centred on the origin, in white. */
const SHAPES: Record<Shape, string> = {
  headphones: `<path d="M-150 40 V-10 A150 150 0 0 1 150 -10 V40" fill="none" stroke="#fff" stroke-width="26" stroke-linecap="round"/>
    <rect x="-185" y="10" width="80" height="140" rx="34" fill="#fff"/><rect x="105" y="10" width="80" height="140" rx="34" fill="#fff"/>`,
  phone: `<rect x="-105" y="-195" width="210" height="390" rx="34" fill="#fff"/>
    <rect x="-88" y="-160" width="176" height="310" rx="12" fill="#000" opacity=".22"/>
    <rect x="-30" y="-182" width="60" height="9" rx="4.5" fill="#000" opacity=".25"/>`,
  laptop: `<rect x="-170" y="-150" width="340" height="220" rx="16" fill="#fff"/>
    <rect x="-150" y="-130" width="300" height="180" rx="6" fill="#000" opacity=".22"/>
    <path d="M-205 86 H205 L185 120 H-185 Z" fill="#fff"/>`,
  watch: `<rect x="-55" y="-200" width="110" height="400" rx="26" fill="#fff" opacity=".55"/>
    <circle r="120" fill="#fff"/><circle r="96" fill="#000" opacity=".18"/>
    <path d="M0 0 V-70 M0 0 L52 26" stroke="#fff" stroke-width="12" stroke-linecap="round"/>
    <rect x="116" y="-16" width="26" height="32" rx="6" fill="#fff"/>`,
  ring: `<circle cy="50" r="130" fill="none" stroke="#fff" stroke-width="34"/>
    <path d="M-70 -85 L-40 -135 H40 L70 -85 L0 -20 Z" fill="#fff"/>
    <path d="M-70 -85 H70 M-40 -135 L-15 -85 L0 -20 M40 -135 L15 -85 L0 -20" stroke="#000" stroke-opacity=".18" stroke-width="5" fill="none"/>`,
  shirt: `<path d="M-70 -170 Q0 -120 70 -170 L190 -110 L150 -20 L110 -40 V180 H-110 V-40 L-150 -20 L-190 -110 Z" fill="#fff"/>
    <path d="M-70 -170 Q0 -100 70 -170" fill="none" stroke="#000" stroke-opacity=".18" stroke-width="8"/>`,
  sneaker: `<path d="M-200 60 V-10 Q-190 -60 -140 -60 L-60 -110 Q-30 -120 -10 -90 L40 -30 Q120 -10 190 20 Q215 35 205 80 H-200 Z" fill="#fff"/>
    <rect x="-205" y="78" width="415" height="34" rx="14" fill="#fff" opacity=".7"/>
    <path d="M-70 -70 L-35 -40 M-50 -90 L-15 -60 M-30 -110 L5 -80" stroke="#000" stroke-opacity=".2" stroke-width="9" stroke-linecap="round"/>`,
  medal: `<path d="M-80 -200 L-20 -60 H20 L80 -200 H35 L0 -110 L-35 -200 Z" fill="#fff" opacity=".6"/>
    <circle cy="60" r="130" fill="#fff"/>
    <path d="M0 -25 L24 27 L80 33 L38 70 L50 126 L0 98 L-50 126 L-38 70 L-80 33 L-24 27 Z" fill="#000" opacity=".18"/>`,
  bear: `<circle cx="-105" cy="-140" r="50" fill="#fff"/><circle cx="105" cy="-140" r="50" fill="#fff"/>
    <circle cy="-70" r="115" fill="#fff"/><ellipse cy="120" rx="145" ry="95" fill="#fff"/>
    <circle cx="-40" cy="-90" r="12" fill="#000" opacity=".3"/><circle cx="40" cy="-90" r="12" fill="#000" opacity=".3"/>
    <ellipse cy="-35" rx="36" ry="26" fill="#000" opacity=".15"/>`,
  gamepad: `<path d="M-120 -90 H120 Q200 -90 210 20 Q220 120 160 130 Q120 135 90 80 H-90 Q-120 135 -160 130 Q-220 120 -210 20 Q-200 -90 -120 -90 Z" fill="#fff"/>
    <path d="M-120 -20 V40 M-150 10 H-90" stroke="#000" stroke-opacity=".25" stroke-width="20" stroke-linecap="round"/>
    <circle cx="110" cy="-15" r="16" fill="#000" opacity=".25"/><circle cx="150" cy="20" r="16" fill="#000" opacity=".25"/>
    <circle cx="70" cy="20" r="16" fill="#000" opacity=".25"/><circle cx="110" cy="55" r="16" fill="#000" opacity=".25"/>`,
  lamp: `<path d="M-150 -40 L-80 -190 H80 L150 -40 Z" fill="#fff"/>
    <rect x="-14" y="-40" width="28" height="190" fill="#fff" opacity=".8"/>
    <ellipse cy="160" rx="120" ry="28" fill="#fff"/>`,
  hammer: `<g transform="rotate(-30)"><rect x="-24" y="-110" width="48" height="330" rx="20" fill="#fff" opacity=".8"/>
    <path d="M-175 -205 H95 Q165 -205 180 -140 H95 V-100 H-175 Q-195 -150 -175 -205 Z" fill="#fff"/></g>`,
  ball: `<circle r="175" fill="#fff"/>
    <path d="M0 -55 L52 -17 L32 45 H-32 L-52 -17 Z" fill="#000" opacity=".25"/>
    <path d="M0 -55 V-120 M52 -17 L115 -40 M32 45 L72 100 M-32 45 L-72 100 M-52 -17 L-115 -40" stroke="#000" stroke-opacity=".2" stroke-width="8"/>`,
  bicycle: `<circle cx="-130" cy="60" r="90" fill="none" stroke="#fff" stroke-width="18"/>
    <circle cx="130" cy="60" r="90" fill="none" stroke="#fff" stroke-width="18"/>
    <path d="M-130 60 L-40 -70 H90 L130 60 M-40 -70 L10 60 L90 -70 M-130 60 H10 M90 -70 L75 -120 H120 M-40 -70 L-55 -110 M-85 -110 H-20"
      fill="none" stroke="#fff" stroke-width="16" stroke-linecap="round" stroke-linejoin="round"/>`,
  vase: `<path d="M-60 -190 H60 V-150 Q60 -120 110 -60 Q175 20 130 120 Q100 190 0 195 Q-100 190 -130 120 Q-175 20 -110 -60 Q-60 -120 -60 -150 Z" fill="#fff"/>
    <path d="M-150 10 H150 M-140 70 H140" stroke="#000" stroke-opacity=".22" stroke-width="14"/>
    <path d="M-110 40 L-85 20 L-60 40 L-35 20 L-10 40 L15 20 L40 40 L65 20 L90 40 L115 20" fill="none" stroke="#000" stroke-opacity=".22" stroke-width="6"/>`,
  key: `<g transform="rotate(-30)"><circle cx="-120" r="80" fill="none" stroke="#fff" stroke-width="36"/>
    <rect x="-45" y="-18" width="250" height="36" rx="10" fill="#fff"/>
    <rect x="140" y="18" width="30" height="60" fill="#fff"/><rect x="90" y="18" width="26" height="44" fill="#fff"/></g>`,
  guitar: `<g transform="rotate(35)"><rect x="-16" y="-210" width="32" height="200" fill="#fff" opacity=".85"/>
    <rect x="-28" y="-240" width="56" height="50" rx="10" fill="#fff"/>
    <path d="M0 -30 Q-85 -40 -85 30 Q-85 70 -60 90 Q-120 120 -110 180 Q-95 240 0 240 Q95 240 110 180 Q120 120 60 90 Q85 70 85 30 Q85 -40 0 -30 Z" fill="#fff"/>
    <circle cy="95" r="30" fill="#000" opacity=".25"/></g>`,
};

function escapeXml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] as string);
}

/** Greedy word wrap by character count; the last line is cut with an ellipsis. */
export function wrapText(text: string, maxChars: number, maxLines: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (!line) line = word;
    else if (line.length + 1 + word.length <= maxChars) line += ` ${word}`;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line) lines.push(line);
  if (lines.length <= maxLines) return lines;
  const kept = lines.slice(0, maxLines);
  const last = kept[maxLines - 1] ?? '';
  kept[maxLines - 1] = `${last.slice(0, Math.max(0, maxChars - 1)).trimEnd()}…`;
  return kept;
}

/** Background, silhouette and category label: the same for every item of a category and view. */
function baseSvg(spec: ArtSpec): string {
  const s = ART_SIDE;
  const angle = [
    [0, 0, 1, 1],
    [1, 0, 0, 1],
    [0, 1, 1, 0],
  ][spec.view] ?? [0, 0, 1, 1];
  const place = [
    { x: 400, y: 300, scale: 0.95, rotate: 0 },
    { x: 430, y: 320, scale: 1.25, rotate: -10 },
    { x: 400, y: 290, scale: 0.85, rotate: 8 },
  ][spec.view] ?? { x: 400, y: 300, scale: 1, rotate: 0 };
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${s}" height="${s}" viewBox="0 0 ${s} ${s}">
  <defs>
    <linearGradient id="bg" x1="${angle[0]}" y1="${angle[1]}" x2="${angle[2]}" y2="${angle[3]}">
      <stop offset="0" stop-color="${spec.palette.from}"/><stop offset="1" stop-color="${spec.palette.to}"/>
    </linearGradient>
    <radialGradient id="glow" cx=".5" cy=".38" r=".45"><stop offset="0" stop-color="#fff" stop-opacity=".28"/><stop offset="1" stop-color="#fff" stop-opacity="0"/></radialGradient>
  </defs>
  <rect width="${s}" height="${s}" fill="url(#bg)"/>
  <rect width="${s}" height="${s}" fill="url(#glow)"/>
  <ellipse cx="400" cy="${place.y + 200 * place.scale}" rx="${190 * place.scale}" ry="${22 * place.scale}" fill="#000" opacity=".18"/>
  <g transform="translate(${place.x} ${place.y}) rotate(${place.rotate}) scale(${place.scale})" opacity=".93">${SHAPES[spec.shape]}</g>
  <rect x="36" y="36" rx="22" width="${Math.min(560, 40 + spec.categoryName.length * 17)}" height="44" fill="#000" opacity=".22"/>
  <text x="56" y="66" font-family="${FONT}" font-size="24" font-weight="bold" fill="#fff" letter-spacing="1">${escapeXml(spec.categoryName.toUpperCase())}</text>
</svg>`;
}

/** The per-item text band, as its own small SVG (rendering only the band keeps each picture cheap). */
function textBand(spec: ArtSpec): { svg: string; top: number } {
  const s = ART_SIDE;
  const big = spec.view === 0;
  const size = big ? 54 : 44;
  const lines = wrapText(spec.title, big ? 22 : 27, big ? 3 : 2);
  const lineHeight = Math.round(size * 1.18);
  const sub = spec.subtitle ? wrapText(spec.subtitle, 40, 1)[0] : null;
  // A soft fade above the text, then the lines, then the optional subtitle.
  const fade = 30;
  const height = fade + 40 + lines.length * lineHeight + (sub ? 48 : 0) + 16;
  const texts = lines
    .map(
      (line, i) =>
        `<text x="48" y="${fade + 32 + size + i * lineHeight - 8}" font-family="${FONT}" font-size="${size}" font-weight="bold" fill="#fff">${escapeXml(line)}</text>`,
    )
    .join('');
  const subText = sub
    ? `<text x="48" y="${fade + 32 + lines.length * lineHeight + 26}" font-family="${FONT}" font-size="28" fill="#fff" opacity=".88">${escapeXml(sub)}</text>`
    : '';
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${s}" height="${height}" viewBox="0 0 ${s} ${height}">
  <defs><linearGradient id="shade" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#000" stop-opacity="0"/><stop offset="${(fade / height).toFixed(3)}" stop-color="#000" stop-opacity=".38"/><stop offset="1" stop-color="#000" stop-opacity=".55"/></linearGradient></defs>
  <rect width="${s}" height="${height}" fill="url(#shade)"/>
  ${texts}${subText}
</svg>`;
  return { svg, top: s - height };
}

export interface ArtRenderer {
  /** A JPEG of the picture, ready to go through saveUploadedImage like a phone photo. */
  render(spec: ArtSpec): Promise<Buffer>;
}

/** Renders pictures, keeping each category's base art (as raw pixels) after its first use. */
export function createArtRenderer(): ArtRenderer {
  const bases = new Map<string, Promise<Buffer>>();
  const baseFor = (spec: ArtSpec) => {
    const key = `${spec.categoryKey}:${spec.view}`;
    let base = bases.get(key);
    if (!base) {
      base = sharp(Buffer.from(baseSvg(spec)))
        .removeAlpha()
        .raw()
        .toBuffer();
      bases.set(key, base);
    }
    return base;
  };
  return {
    async render(spec) {
      const base = await baseFor(spec);
      const band = textBand(spec);
      return sharp(base, { raw: { width: ART_SIDE, height: ART_SIDE, channels: 3 } })
        .composite([{ input: Buffer.from(band.svg), top: band.top, left: 0 }])
        .jpeg({ quality: 90 })
        .toBuffer();
    },
  };
}
