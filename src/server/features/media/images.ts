import type { Metadata, OutputInfo } from 'sharp';

/** Why an upload is not a usable image; the routes turn each code into a Spanish message. */
export type ImageErrorCode = 'NOT_AN_IMAGE' | 'UNREADABLE' | 'TOO_MANY_PIXELS' | 'HEIC_UNSUPPORTED';

export class ImageError extends Error {
  constructor(
    readonly code: ImageErrorCode,
    options?: { cause?: unknown },
  ) {
    super(code, options);
    this.name = 'ImageError';
  }
}

/** What the bytes may be, as file-type names them. The filename and the declared type are never consulted. */
const ACCEPTED_MIME = new Set([
  'image/jpeg',
  'image/png',
  'image/apng',
  'image/webp',
  'image/gif',
  'image/avif',
  'image/heic',
  'image/heif',
  'image/heic-sequence',
  'image/heif-sequence',
]);
const HEIC_MIME = new Set(['image/heic', 'image/heif', 'image/heic-sequence', 'image/heif-sequence']);

/** Decompression-bomb guard: a few KB of PNG can claim billions of pixels. 50 MP covers any phone camera. */
export const MAX_INPUT_PIXELS = 50_000_000;
export const THUMBNAIL_SIDE = 320;
const MAIN_QUALITY = 82;
const THUMB_QUALITY = 76;

export interface ProcessedImage {
  /** JPEG, oriented, metadata stripped, longest side at most `maxSide`. */
  main: Buffer;
  /** JPEG, longest side at most THUMBNAIL_SIDE. */
  thumb: Buffer;
  width: number;
  height: number;
  /** What the upload was, from its bytes (for logs). */
  sourceType: string;
}

/**
 * sharp (libvips) and file-type, loaded by the first image: a server nobody uploads to does not hold
 * them in its memory (bench/README.md, idle memory).
 */
const loadImageLibraries = () =>
  Promise.all([import('file-type'), import('sharp')]).then(([fileType, sharp]) => ({ fileTypeFromBuffer: fileType.fileTypeFromBuffer, sharp: sharp.default }));
let libraries: ReturnType<typeof loadImageLibraries> | null = null;
function imageLibraries() {
  libraries ??= loadImageLibraries();
  return libraries;
}

/**
 * Turns untrusted bytes into a clean JPEG and its thumbnail. Re-encoding drops every byte of the
 * original container (EXIF, GPS, XMP, ICC, comments, trailing payloads): sharp writes no metadata
 * unless withMetadata/keepMetadata is asked for, and converts to sRGB.
 */
export async function processImage(input: Buffer, opts: { maxSide: number; maxInputPixels?: number }): Promise<ProcessedImage> {
  const { fileTypeFromBuffer, sharp } = await imageLibraries();
  const sniffed = await fileTypeFromBuffer(input);
  if (!sniffed || !ACCEPTED_MIME.has(sniffed.mime)) throw new ImageError('NOT_AN_IMAGE');
  const maxInputPixels = opts.maxInputPixels ?? MAX_INPUT_PIXELS;
  const undecodable = HEIC_MIME.has(sniffed.mime) ? 'HEIC_UNSUPPORTED' : 'UNREADABLE';

  // The header alone says how big the decoded image would be; refuse before decoding a pixel.
  let header: Metadata;
  try {
    header = await sharp(input, { limitInputPixels: false }).metadata();
  } catch (err) {
    throw new ImageError(undecodable, { cause: err });
  }
  const frameHeight = header.pageHeight ?? header.height;
  if (!header.width || !frameHeight) throw new ImageError(undecodable);
  if (header.width * frameHeight > maxInputPixels) throw new ImageError('TOO_MANY_PIXELS');

  let main: Buffer;
  let info: OutputInfo;
  try {
    // pages: 1 keeps the first frame of an animated GIF/WebP; failOn 'error' refuses truncated or corrupt data.
    ({ data: main, info } = await sharp(input, { limitInputPixels: maxInputPixels, failOn: 'error', pages: 1 })
      .rotate()
      .resize({ width: opts.maxSide, height: opts.maxSide, fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: MAIN_QUALITY, mozjpeg: true })
      .toBuffer({ resolveWithObject: true }));
  } catch (err) {
    if (err instanceof Error && /pixel limit/i.test(err.message)) throw new ImageError('TOO_MANY_PIXELS', { cause: err });
    throw new ImageError(undecodable, { cause: err });
  }

  // From the clean main image: already oriented, flattened and small, so this is cheap.
  const thumb = await sharp(main)
    .resize({ width: THUMBNAIL_SIDE, height: THUMBNAIL_SIDE, fit: 'inside', withoutEnlargement: true })
    .jpeg({ quality: THUMB_QUALITY, mozjpeg: true })
    .toBuffer();

  return { main, thumb, width: info.width, height: info.height, sourceType: sniffed.mime };
}
