import { createTheme, type CSSVariablesResolver } from '@mantine/core';

export const theme = createTheme({
  // The spec's breakpoints (576, 768, 992, 1200 and 1400 px) in em, as Mantine takes them (px / 16).
  breakpoints: {
    xs: '36em',
    sm: '48em',
    md: '62em',
    lg: '75em',
    xl: '87.5em',
  },
  primaryColor: 'indigo',
  // Shade 7 keeps white text on filled buttons above the WCAG AA contrast ratio (4.98:1).
  primaryShade: { light: 7, dark: 8 },
  defaultRadius: 'md',
  focusRing: 'auto',
  respectReducedMotion: true,
  fontFamily:
    'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  headings: { fontWeight: '700' },
});

// Mantine's default dimmed and error greys/reds are below 4.5:1 on white; darken them for readable text.
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-error': 'var(--mantine-color-red-8)',
  },
  dark: {},
});
