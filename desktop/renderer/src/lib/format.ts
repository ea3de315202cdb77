const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const numberFormat = new Intl.NumberFormat();

/** A stored epoch-milliseconds timestamp as a date in the user's locale. */
export const formatDate = (ms: number): string => dateFormat.format(new Date(ms));
export const formatDateTime = (ms: number): string => dateTimeFormat.format(new Date(ms));
export const formatNumber = (n: number): string => numberFormat.format(n);
