// The look both project charts share (requests by day, today by the hour): grid, axis ticks and lines.
export const GRID_PROPS = { strokeDasharray: '3 3', vertical: false, stroke: 'var(--mantine-color-gray-3)' } as const;
export const AXIS_TICK = { fontSize: 12, fill: 'var(--mantine-color-dimmed)' } as const;
export const X_AXIS_LINE = { stroke: 'var(--mantine-color-gray-4)' } as const;
