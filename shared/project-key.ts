// What a project key looks like (a network's prefix and 32 letters or digits), for the places that
// must find one inside a longer text: the gateway reading a key from a URL, and every log line or
// stored path that must never show one.
import { networks } from './networks';

const PREFIXES = networks.flatMap((n) => (n.prefix ? [n.prefix] : [])).join('|');

/** A whole project key. */
export const PROJECT_KEY = new RegExp(`^(?:${PREFIXES})[A-Za-z0-9]{32}$`);

/** Any project key inside a text (a URL, a message), not part of a longer word. */
const KEY_IN_TEXT = new RegExp(`(?<![A-Za-z0-9])(?:${PREFIXES})[A-Za-z0-9]{32}(?![A-Za-z0-9])`, 'g');

export const REDACTED_KEY = '[key]';

/** The text with every project key in it replaced by [key]. */
export const redactKeys = (text: string): string => text.replace(KEY_IN_TEXT, REDACTED_KEY);
