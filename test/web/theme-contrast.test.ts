import { DEFAULT_THEME, mergeMantineTheme } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { accessibleColorVariables, theme } from '../../src/web/theme';
import { AA_TEXT, contrastRatio, darkenToContrast, luminance } from '../../src/web/theme-contrast';

const merged = mergeMantineTheme(DEFAULT_THEME, theme);
const vars = accessibleColorVariables(merged.colors, merged.luminanceThreshold);
const PAGES = ['#ffffff', '#f8f9fa', '#f1f3f5'];

describe('contrast arithmetic (WCAG 2)', () => {
  it('matches the published ratios', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#ffffff', '#ffffff')).toBe(1);
    // The measurement: Mantine's dimmed grey on white.
    expect(contrastRatio('#868e96', '#ffffff')).toBeCloseTo(3.32, 2);
  });

  it('leaves a colour that already reaches the ratio alone, and darkens one that does not only as far as needed', () => {
    expect(darkenToContrast('#495057', ['#ffffff'])).toBe('#495057');
    const darker = darkenToContrast('#868e96', ['#ffffff']);
    expect(contrastRatio(darker, '#ffffff')).toBeGreaterThanOrEqual(AA_TEXT);
    expect(contrastRatio(darker, '#ffffff')).toBeLessThan(AA_TEXT + 0.6);
  });
});

describe('the theme reaches AA for every colour it derives (WCAG 2 contrast)', () => {
  it('dimmed text and placeholders on white and the light greys', () => {
    for (const bg of [...PAGES, merged.colors.gray[2]]) expect(contrastRatio(vars['--mantine-color-dimmed'] as string, bg)).toBeGreaterThanOrEqual(AA_TEXT);
    expect(contrastRatio(vars['--mantine-color-placeholder'] as string, '#ffffff')).toBeGreaterThanOrEqual(AA_TEXT);
  });

  for (const name of Object.keys(merged.colors)) {
    it(`${name}: coloured text, light badges, and white on a filled background`, () => {
      const shades = merged.colors[name] as readonly string[];
      for (const bg of PAGES) expect(contrastRatio(vars[`--mantine-color-${name}-text`] as string, bg)).toBeGreaterThanOrEqual(AA_TEXT);
      expect(contrastRatio(vars[`--mantine-color-${name}-light-color`] as string, shades[1] as string)).toBeGreaterThanOrEqual(AA_TEXT);
      // autoContrast writes black on a light filled colour (Mantine's own luminance test), white on a dark one.
      const shade = shades[7] as string;
      if (luminance(shade) > merged.luminanceThreshold)
        expect(contrastRatio(shade, '#000000')).toBeGreaterThanOrEqual(AA_TEXT); // theme.black is #000
      else expect(contrastRatio(vars[`--mantine-color-${name}-filled`] as string, '#ffffff')).toBeGreaterThanOrEqual(AA_TEXT);
    });
  }
});
