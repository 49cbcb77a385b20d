import { type CSSVariablesResolver, createTheme, rem } from '@mantine/core';
import { BREAKPOINTS } from '@otklik/shared';

const em = (px: number) => `${px / 16}em`;

export const theme = createTheme({
  primaryColor: 'indigo',
  // Shade 7: white on the filled buttons and indigo links on white keep WCAG AA contrast (4.5:1); the
  // accessibility e2e (axe-core) checks it.
  primaryShade: { light: 7, dark: 5 },
  defaultRadius: 'md',
  fontFamily:
    "Inter, system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans', sans-serif",
  headings: { fontWeight: '650' },
  // docs/product/limits.md: mobile below 768, tablet below 1025, laptop below 1381.
  breakpoints: {
    xs: em(576),
    sm: em(BREAKPOINTS.mobile),
    md: em(BREAKPOINTS.tablet),
    lg: em(BREAKPOINTS.laptop),
    xl: em(1600),
  },
  spacing: { xs: rem(8), sm: rem(12), md: rem(16), lg: rem(24), xl: rem(32) },
  components: {
    Button: { defaultProps: { fw: 600 } },
    Paper: { defaultProps: { radius: 'lg' } },
  },
});

/** Dimmed text (hints, dates) at gray.7 in the light scheme: Mantine's gray.6 is below 4.5:1 on white. */
export const cssVariablesResolver: CSSVariablesResolver = (t) => ({
  variables: {},
  light: { '--mantine-color-dimmed': t.colors.gray[7] },
  dark: {},
});
