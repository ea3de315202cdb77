import type { ReactNode } from 'react';
import classes from './pricing.module.css';

interface ToggleOption<V extends string> {
  value: V;
  label: ReactNode;
}

interface SegmentedToggleProps<V extends string> {
  /** Names the radio group for assistive technology. */
  label: string;
  name: string;
  value: V;
  onChange: (value: V) => void;
  options: ReadonlyArray<ToggleOption<V>>;
}

/**
 * A pill-shaped switch between two or three options, built on native radio buttons (arrow keys move
 * between them). Plain CSS: it does no layout measuring, so it costs the landing page's first paint nothing.
 */
export function SegmentedToggle<V extends string>({ label, name, value, onChange, options }: SegmentedToggleProps<V>) {
  return (
    <div role="radiogroup" aria-label={label} className={classes.segmented}>
      {options.map((option) => (
        <label key={option.value} className={classes.segment} data-active={option.value === value || undefined}>
          <input
            type="radio"
            className={classes.segmentInput}
            name={name}
            value={option.value}
            checked={option.value === value}
            onChange={() => onChange(option.value)}
          />
          {option.label}
        </label>
      ))}
    </div>
  );
}
