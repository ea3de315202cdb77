import { createTheme, darken, defaultVariantColorsResolver, parseThemeColor, type CSSVariablesResolver, type VariantColorsResolver } from '@mantine/core';

/** Colours whose shade 9 is too light for white text (green, lime, yellow and orange below 4.5:1). */
const BRIGHT = new Set(['green', 'lime', 'yellow', 'orange']);

/**
 * Mantine's variant colours, made readable (WCAG AA, 4.5:1): text on a light-variant badge, alert or
 * button is the colour's shade 9 darkened by 30 % (shade 6 is below 3:1 on its own tint), and a filled
 * green, lime, yellow or orange is its shade 9 darkened by 20 % under white text, and an outline's text
 * and border are shade 9 (darkened by 20 % for those four). An explicit shade
 * ('yellow.5') is left as asked.
 */
const readableVariantColors: VariantColorsResolver = (input) => {
  const base = defaultVariantColorsResolver(input);
  const parsed = parseThemeColor({ color: input.color || input.theme.primaryColor, theme: input.theme });
  if (!parsed.isThemeColor || parsed.shade !== undefined || parsed.color === 'gray' || parsed.color === 'dark') return base;
  const shade9 = input.theme.colors[parsed.color]![9];
  if (input.variant === 'light') return { ...base, color: darken(shade9, 0.3), hoverColor: darken(shade9, 0.3) };
  if (input.variant === 'filled' && BRIGHT.has(parsed.color)) return { ...base, background: darken(shade9, 0.2), hover: darken(shade9, 0.3), color: '#fff' };
  if (input.variant === 'outline') {
    const text = BRIGHT.has(parsed.color) ? darken(shade9, 0.2) : shade9;
    return { ...base, color: text, border: `1px solid ${text}` };
  }
  return base;
};

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
  variantColorResolver: readableVariantColors,
  components: {
    // A toast's close button is an icon: screen readers need its name.
    Notification: { defaultProps: { closeButtonProps: { 'aria-label': 'Close notification' } } },
  },
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
