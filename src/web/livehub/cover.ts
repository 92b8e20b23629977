import { COVER_HEIGHT, COVER_MAX_BYTES, COVER_WIDTH, type LotView } from '../../domain/live.js';

/**
 * The session cover's rules (SPEC §5 "Edit session", §9): image files only, at most 2 MB, cropped
 * at 9:16 and drawn onto a 720x1280 canvas. Pure, so the numbers are tested without a browser.
 */

export type CoverFileProblem = 'notImage' | 'tooLarge';

const IMAGE_EXTENSION = /\.(jpe?g|png|webp|gif|avif|hei[cf])$/i;

/** `accept="image/*"` is only a hint (drops skip it); some systems leave HEIC untyped, so the name decides then. */
export function isImageFile(file: { type: string; name: string }): boolean {
  return file.type.startsWith('image/') || (file.type === '' && IMAGE_EXTENSION.test(file.name));
}

export function coverFileProblem(file: { type: string; size: number; name: string }): CoverFileProblem | null {
  if (!isImageFile(file)) return 'notImage';
  if (file.size > COVER_MAX_BYTES) return 'tooLarge';
  return null;
}

export interface Area {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface DrawRect {
  /** Source rectangle in the image's own pixels. */
  sx: number;
  sy: number;
  sw: number;
  sh: number;
  /** Destination: always the whole 720x1280 canvas. */
  dw: number;
  dh: number;
}

/**
 * The canvas call for the crop react-easy-crop reports (`croppedAreaPixels`): the area, kept inside
 * the image and at least one pixel, stretched over the whole 720x1280 output.
 */
export function coverDrawRect(area: Area, image: { width: number; height: number }): DrawRect {
  const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));
  const sx = clamp(Math.round(area.x), 0, Math.max(0, image.width - 1));
  const sy = clamp(Math.round(area.y), 0, Math.max(0, image.height - 1));
  const sw = clamp(Math.round(area.width), 1, image.width - sx);
  const sh = clamp(Math.round(area.height), 1, image.height - sy);
  return { sx, sy, sw, sh, dw: COVER_WIDTH, dh: COVER_HEIGHT };
}

/** 'Elegir imagen existente': every photo of the session's lots, in lot order, each once. */
export function lotImageChoices(lots: readonly LotView[]): { url: string; lotName: string; index: number }[] {
  const seen = new Set<string>();
  const out: { url: string; lotName: string; index: number }[] = [];
  for (const lot of [...lots].sort((a, b) => a.order - b.order)) {
    const urls = lot.auction.images.length > 0 ? lot.auction.images : lot.auction.thumbnailUrl ? [lot.auction.thumbnailUrl] : [];
    urls.forEach((url, i) => {
      if (!url || seen.has(url)) return;
      seen.add(url);
      out.push({ url, lotName: lot.auction.name, index: i + 1 });
    });
  }
  return out;
}
