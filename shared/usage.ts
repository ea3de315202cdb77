export const TOP_N = 10;
export const HISTORY_DAYS = 30;
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
