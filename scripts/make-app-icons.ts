/**
 * The installed app's icons (public/icons/), drawn from the brand mark (public/favicon.svg) by
 * sharp: 192 and 512 px, a 180 px apple-touch-icon, and a maskable 512 whose mark sits inside the
 * middle 80 % a phone's mask may keep. Run `npx tsx scripts/make-app-icons.ts` after changing the mark.
 */
import { readFileSync } from 'node:fs';
import sharp from 'sharp';

const dir = new URL('../public/', import.meta.url);
const mark = readFileSync(new URL('favicon.svg', dir), 'utf8');
// The mark's glyph without its rounded tile, for the maskable icon's full-bleed background.
const glyph = mark.replace(/<rect width="64" height="64" rx="14" fill="#9c2f1f"\/>/, '').replace(/<title>.*?<\/title>/, '');

async function square(size: number, file: string): Promise<void> {
  await sharp(Buffer.from(mark), { density: (72 * size) / 64 })
    .resize(size, size)
    .png({ compressionLevel: 9 })
    .toFile(new URL(`icons/${file}`, dir).pathname);
}

async function maskable(size: number, file: string): Promise<void> {
  const inner = Math.round(size * 0.6);
  const art = await sharp(Buffer.from(glyph), { density: (72 * inner) / 64 })
    .resize(inner, inner)
    .png()
    .toBuffer();
  await sharp({ create: { width: size, height: size, channels: 4, background: '#9c2f1f' } })
    .composite([{ input: art, gravity: 'center' }])
    .png({ compressionLevel: 9 })
    .toFile(new URL(`icons/${file}`, dir).pathname);
}

await square(192, 'icon-192.png');
await square(512, 'icon-512.png');
await maskable(512, 'icon-maskable-512.png');
// iOS draws its own rounded corners and shows black behind transparency: a full square.
await maskable(180, 'apple-touch-icon.png');
