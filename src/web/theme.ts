import {
  type CSSVariablesResolver,
  createTheme,
  DEFAULT_THEME,
  type MantineColorsTuple,
  type MantineThemeOverride,
  mergeMantineTheme,
  mergeThemeOverrides,
} from '@mantine/core';
import { darkenHex, darkenToContrast, luminance } from './theme-contrast';

/** Brick red of an auctioneer's gavel: strong on buttons, warm on light backgrounds. */
const martillo: MantineColorsTuple = ['#fdf0ec', '#f6ddd5', '#eeb8a8', '#e69178', '#df6f50', '#da5a37', '#d84f29', '#c0401c', '#ab3817', '#952d10'];

/** Aged gold for highlights (live badges, the brand mark). */
const oro: MantineColorsTuple = ['#fff8e1', '#ffefcb', '#ffdd9a', '#ffca64', '#ffba38', '#ffb01b', '#ffab09', '#e39500', '#ca8400', '#af7100'];

const LIGHT_SHADE = 7;

export const theme = createTheme({
  primaryColor: 'martillo',
  primaryShade: { light: LIGHT_SHADE, dark: 5 },
  colors: { martillo, oro },
  // Filled badges and buttons on light colours (yellow, green, gold) get dark text, not white.
  autoContrast: true,
  defaultRadius: 'md',
  fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  headings: {
    fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
    fontWeight: '700',
  },
  cursorType: 'pointer',
  components: {
    // A dialog's <header> is its title bar, not the page's banner: without this, every open
    // dialog adds a second banner landmark (axe: landmark-no-duplicate-banner, landmark-unique).
    Modal: { defaultProps: { attributes: { header: { role: 'none' } } } },
    // Mantine's focus placeholder inside role="menu" is focusable, so axe refuses it as a menu child.
    Menu: { defaultProps: { withInitialFocusPlaceholder: false } },
    // A notification's message under a title is gray.6 (3.3:1 on white): the theme's dimmed reaches 4.5:1.
    Notification: { styles: { description: { color: 'var(--mantine-color-dimmed)' } } },
  },
});

/**
 * The theme with the words its components need: every dialog's and every notification's close
 * button gets a name (axe: button-name), so none is left unnamed when a call site forgets it.
 */
export function themeWithLabels(labels: { closeDialog: string; closeNotice: string }): MantineThemeOverride {
  return mergeThemeOverrides(theme, {
    components: {
      Modal: { defaultProps: { closeButtonProps: { 'aria-label': labels.closeDialog } } },
      Notification: { defaultProps: { closeButtonProps: { 'aria-label': labels.closeNotice } } },
    },
  });
}

/** The page backgrounds text sits on: white, and the light greys of panels and table stripes. */
const PAGE_BACKGROUNDS = ['#ffffff', '#f8f9fa', '#f1f3f5'];

/**
 * Every text colour the light scheme derives from the palette reaches WCAG AA
 * (4.5:1), so no screen fails axe's color-contrast. Mantine's defaults miss it in places: dimmed
 * text (#868e96, 3.3:1 on white), `c="red"` text, light badges (green.9 on green.1 is 3.8:1),
 * and white on filled red or blue. Each is darkened only as far as it must be, keeping its hue;
 * filled colours light enough for dark text are left to `autoContrast`.
 */
export function accessibleColorVariables(colors: Record<string, readonly string[]>, threshold: number): Record<string, string> {
  const variables: Record<string, string> = {};
  for (const [name, shades] of Object.entries(colors)) {
    const filled = shades[LIGHT_SHADE] as string;
    const text = darkenToContrast(filled, PAGE_BACKGROUNDS);
    variables[`--mantine-color-${name}-text`] = text;
    variables[`--mantine-color-${name}-outline`] = text;
    variables[`--mantine-color-${name}-light-color`] = darkenToContrast(shades[9] as string, [shades[1] as string, shades[2] as string]);
    if (luminance(filled) <= threshold) {
      const onWhite = darkenToContrast(filled, ['#ffffff']);
      variables[`--mantine-color-${name}-filled`] = onWhite;
      variables[`--mantine-color-${name}-filled-hover`] = darkenHex(onWhite, 0.1);
    }
  }
  const gray = colors.gray as readonly string[];
  variables['--mantine-color-dimmed'] = darkenToContrast(gray[6] as string, [...PAGE_BACKGROUNDS, gray[2] as string]);
  // Placeholders stay lighter than typed text but readable: gray.5 (#adb5bd) is 2.1:1.
  variables['--mantine-color-placeholder'] = darkenToContrast(gray[5] as string, ['#ffffff']);
  return variables;
}

const merged = mergeMantineTheme(DEFAULT_THEME, theme);
const lightVariables = accessibleColorVariables(merged.colors, merged.luminanceThreshold);

export const cssVariablesResolver: CSSVariablesResolver = () => ({ variables: {}, light: lightVariables, dark: {} });
