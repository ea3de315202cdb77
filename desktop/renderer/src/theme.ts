import { createTheme, type CSSVariablesResolver } from '@mantine/core';

/** Spec breakpoints in px; Mantine takes them in em (px / 16). */
export const breakpointsPx = { xs: 576, sm: 768, md: 992, lg: 1200, xl: 1400 } as const;

/** The public navigation collapses into a toggle menu below this width (spec section 9). */
export const NAV_COLLAPSE_PX = 998;

export const theme = createTheme({
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
