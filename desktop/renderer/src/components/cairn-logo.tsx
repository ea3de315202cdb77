import type { SVGProps } from 'react';

/** Four stacked stones. Decorative: always shown next to the name "Cairn". */
export function CairnLogo({ size = 28, ...props }: SVGProps<SVGSVGElement> & { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false" {...props}>
      <ellipse cx="16" cy="26" rx="12" ry="4.5" fill="#364fc7" />
      <ellipse cx="16" cy="17.5" rx="9" ry="3.8" fill="#4263eb" />
      <ellipse cx="16" cy="10" rx="6" ry="3.2" fill="#5c7cfa" />
      <ellipse cx="16" cy="4.5" rx="3.2" ry="2.2" fill="#91a7ff" />
    </svg>
  );
}
