import { createTheme, rem } from '@mantine/core';
import { BREAKPOINTS } from '@otklik/shared';

const em = (px: number) => `${px / 16}em`;

export const theme = createTheme({
  primaryColor: 'indigo',
  primaryShade: { light: 6, dark: 5 },
  defaultRadius: 'md',
  fontFamily:
    "Inter, system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans', sans-serif",
  headings: { fontWeight: '650' },
  // SPEC §9: mobile below 768, tablet below 1025, laptop below 1381.
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
