const percent = new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 1 });

/** requests ÷ total as a fraction from 0 to 1 (0 when there is no total). */
export const shareOf = (requests: number, total: number): number => (total > 0 ? Math.min(1, Math.max(0, requests / total)) : 0);

/** requests ÷ total as a percentage in the user's locale ('12.5%'). */
export const formatShare = (requests: number, total: number): string => percent.format(shareOf(requests, total));
