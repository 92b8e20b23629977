import { createTheme, type MantineColorsTuple } from '@mantine/core';

/** Brick red of an auctioneer's gavel: strong on buttons, warm on light backgrounds. */
const martillo: MantineColorsTuple = ['#fdf0ec', '#f6ddd5', '#eeb8a8', '#e69178', '#df6f50', '#da5a37', '#d84f29', '#c0401c', '#ab3817', '#952d10'];

/** Aged gold for highlights (live badges, the brand mark). */
const oro: MantineColorsTuple = ['#fff8e1', '#ffefcb', '#ffdd9a', '#ffca64', '#ffba38', '#ffb01b', '#ffab09', '#e39500', '#ca8400', '#af7100'];

export const theme = createTheme({
  primaryColor: 'martillo',
  primaryShade: { light: 7, dark: 5 },
  colors: { martillo, oro },
  defaultRadius: 'md',
  fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  headings: {
    fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
    fontWeight: '700',
  },
  cursorType: 'pointer',
});
