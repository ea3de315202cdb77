export const TOP_N = 10;
export const HISTORY_DAYS = 30;
/**
 * The metering flush's per-day count of requests from private, loopback, link-local and CGNAT
 * addresses (shared/ip.ts isPrivateIp), kept beside the IP counts in usage_dimensions and in the
 * 30-day window under this dimension and value, so the stats read one row instead of every IP.
 */
export const PRIVATE_NETWORK_DIMENSION = 'private';
export const PRIVATE_NETWORK_VALUE = '*';
/** The graph draws the plan's limit line when the busiest day passes this share of the daily limit. */
export const LIMIT_LINE_THRESHOLD = 0.9;

export interface StatsRow {
  user_country: string;
  ip: string;
  endpoint: string;
  user_agent_browser: string;
  requests: number;
}

export interface ProjectStats {
  /** Requests of the project over the last 30 days. */
  projectRequests: number;
  total: number;
  /** True when the plan shows only countries; the detailed lists are then empty. */
  locked: boolean;
  countries: Array<Pick<StatsRow, 'user_country' | 'requests'>>;
  ips: Array<Pick<StatsRow, 'ip' | 'requests'>>;
  endpoints: Array<Pick<StatsRow, 'endpoint' | 'requests'>>;
  browsers: Array<Pick<StatsRow, 'user_agent_browser' | 'requests'>>;
  /**
   * Of the requests counted under country 'unknown', those from private, loopback, link-local or CGNAT
   * addresses (shared/ip.ts): the dashboard shows them as 'Private network'.
   */
  privateNetworkRequests?: number;
}

export interface ProjectHistory {
  /** One point per UTC day, oldest first; time is the day's start in epoch milliseconds. */
  data: Array<{ time: number; requestCount: number }>;
  max: number;
}
