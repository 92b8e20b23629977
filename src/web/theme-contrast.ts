/**
 * Colour contrast for the theme, so every text reaches WCAG AA (see theme.ts): WCAG 2 relative luminance and contrast ratio,
 * and the darkening that brings a colour to a ratio. Pure, on #rrggbb strings, so the theme can
 * compute its CSS variables once and a unit test can check every pairing.
 */

/** WCAG AA for normal text: 4.5:1. */
export const AA_TEXT = 4.5;

function channels(hex: string): [number, number, number] {
  const match = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!match) throw new Error(`not a #rrggbb colour: ${hex}`);
  return [Number.parseInt(match[1] as string, 16), Number.parseInt(match[2] as string, 16), Number.parseInt(match[3] as string, 16)];
}

const toHex = (rgb: readonly number[]) => `#${rgb.map((v) => Math.round(v).toString(16).padStart(2, '0')).join('')}`;

export function luminance(hex: string): number {
  const [r, g, b] = channels(hex).map((v) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** Mixes `hex` towards black by `amount` (0–1). */
export function darkenHex(hex: string, amount: number): string {
  return toHex(channels(hex).map((v) => v * (1 - amount)));
}

/**
 * `hex` itself when it reaches `ratio` against every background, otherwise the lightest darkening
 * of it (in 2 % steps) that does: the hue stays, only as dark as it must.
 */
export function darkenToContrast(hex: string, backgrounds: readonly string[], ratio = AA_TEXT): string {
  for (let step = 0; step <= 50; step++) {
    const candidate = darkenHex(hex, step * 0.02);
    if (backgrounds.every((bg) => contrastRatio(candidate, bg) >= ratio)) return candidate;
  }
  return '#000000';
}
