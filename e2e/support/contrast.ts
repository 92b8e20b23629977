import type { Page } from 'playwright-core';
import { contrastRatio } from '../../src/web/theme-contrast.js';

/**
 * The lowest contrast of the text in `selector`'s elements against the background they sit on (the
 * nearest ancestor's opaque colour): axe leaves fixed, floating notices to review by hand.
 */
export async function lowestContrast(page: Page, selector: string): Promise<{ ratio: number; text: string }> {
  const pairs = await page.locator(selector).evaluateAll((roots) => {
    const out: { fg: string; bg: string; text: string }[] = [];
    const opaque = (c: string) => c !== 'transparent' && !/rgba\(.*,\s*0\)$/.test(c);
    for (const root of roots) {
      for (const el of [root, ...Array.from(root.querySelectorAll('*'))]) {
        const own = Array.from(el.childNodes).some((n) => n.nodeType === Node.TEXT_NODE && n.textContent?.trim());
        if (!own) continue;
        let bgEl: Element | null = el;
        while (bgEl && !opaque(getComputedStyle(bgEl).backgroundColor)) bgEl = bgEl.parentElement;
        out.push({ fg: getComputedStyle(el).color, bg: bgEl ? getComputedStyle(bgEl).backgroundColor : 'rgb(255, 255, 255)', text: el.textContent ?? '' });
      }
    }
    return out;
  });
  const hex = (rgb: string) =>
    `#${(rgb.match(/\d+/g) ?? [])
      .slice(0, 3)
      .map((v) => Number(v).toString(16).padStart(2, '0'))
      .join('')}`;
  let lowest = { ratio: Number.POSITIVE_INFINITY, text: '' };
  for (const { fg, bg, text } of pairs) {
    const ratio = contrastRatio(hex(fg), hex(bg));
    if (ratio < lowest.ratio) lowest = { ratio, text };
  }
  return lowest;
}
