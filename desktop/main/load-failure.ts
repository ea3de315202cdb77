/** Chromium's net::ERR_ABORTED: a load replaced by another one (e.g. a deep link), not a failure. */
export const ERR_ABORTED = -3;

interface LoadFailure {
  errorCode: number;
  errorDescription: string;
  url: string;
  isMainFrame: boolean;
}

/** What to tell the user when the Cairn page could not load, or null when there is nothing to report. */
export function describeLoadFailure(failure: LoadFailure, cairnOrigin: string): string | null {
  if (!failure.isMainFrame || failure.errorCode === ERR_ABORTED) return null;
  const reason = failure.errorDescription || `error ${failure.errorCode}`;
  return `Cairn could not load ${cairnOrigin} (${reason}). Check that the Cairn server is running and reachable, or set CAIRN_URL to its address.`;
}
