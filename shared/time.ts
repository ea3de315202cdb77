// Lengths of time in milliseconds, for the server, the screens and the tests. Usage is counted per UTC
// day (quota_usage.day_ms, the gateway's daily limit), so a day here is exactly 86 400 000 ms.

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;

/** The start of the UTC day holding `ms`: the day a request is counted in (quota_usage.day_ms). */
export const dayStartOf = (ms: number): number => ms - (ms % DAY_MS);
