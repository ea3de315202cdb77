// A project's allow-lists (browser origins, client IPs and CIDRs, and for Milkomeda projects the
// JSON-RPC methods) and its key rotation's grace periods. The dashboard form, the server's validation
// and the gateway's matchers all come from here: the server validates and stores each entry in its
// canonical form, and the gateway's key cache compiles the stored lists once per load (compileAllowList),
// so a request costs a few map look-ups and integer compares, never a parse of the lists.
import { z } from 'zod';
import { parseIpv4, parseIpv6 } from './ip';
import { ALLOWED_EVM_METHODS } from './milkomeda';
import { DAY_MS } from './time';

/** Entries per list. */
export const MAX_ALLOW_LIST_ENTRIES = 100;

/** What the gateway answers (403, Blockfrost's body) when a list refuses a request: each names its list. */
export const ALLOW_LIST_MESSAGES = {
  origin: "Origin not allowed: this project's key accepts requests only from the browser origins on its allow-list.",
  ip: "IP address not allowed: this project's key accepts requests only from the IP addresses on its allow-list.",
  method: "JSON-RPC method not allowed: this project's key accepts only the methods on its allow-list.",
} as const;
export type AllowListName = keyof typeof ALLOW_LIST_MESSAGES;

/**
 * Metering: a request an allow-list refused (403, before any limit, never counted toward the quota)
 * is counted under this usage dimension, valued by the list that refused it; request insight reads it.
 */
export const REFUSED_DIMENSION = 'refused';
/** A meter record's refused field: 0 for none, else the index of the list here. */
export const REFUSED_BY = ['', 'origin', 'ip', 'method'] as const;
export const refusedCode = (list: AllowListName): number => REFUSED_BY.indexOf(list);

/** How long the previous key keeps working after 'Roll key'. */
export const KEY_GRACE_PERIODS = {
  none: { label: 'None: the old key stops at once', ms: 0 },
  '1h': { label: '1 hour', ms: 3_600_000 },
  '24h': { label: '24 hours', ms: DAY_MS },
  '7d': { label: '7 days', ms: 7 * DAY_MS },
} as const;
export type KeyGrace = keyof typeof KEY_GRACE_PERIODS;
export const keyGraceSchema = z.enum(Object.keys(KEY_GRACE_PERIODS) as [KeyGrace, ...KeyGrace[]]);
export const rollKeySchema = z.object({ grace: keyGraceSchema });

export interface AllowLists {
  origins: string[];
  ips: string[];
  methods: string[];
}

/** The previous key of a project while its grace period lasts. */
export interface PreviousKeyDto {
  project_id: string;
  /** Epoch ms when the gateway stops accepting it. */
  expires_at: number;
}

/** What 'Roll key' answers: both live keys (the API reference reads this schema). */
export const rolledKeysSchema = z.object({
  project_id: z.string().describe('The new key, in use at once; it does not expire.'),
  previous_key: z
    .object({ project_id: z.string(), expires_at: z.number().int().describe('Epoch ms when the gateway stops accepting the old key.') })
    .nullable()
    .describe('The old key while its grace period lasts; null with grace "none".'),
});

export const allowListsResponseSchema = z.object({ origins: z.array(z.string()), ips: z.array(z.string()), methods: z.array(z.string()) });

// ---------------------------------------------------------------------------------------------
// Origins: 'https://app.example.com' (exact; scheme required, port optional) or '*.example.com' /
// 'https://*.example.com' (any subdomain, at any depth, not the domain itself; without a scheme both
// http and https). A port written in the pattern must be the origin's; none means the default port.

const LABEL = '(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)';
const HOST = `(?:${LABEL}(?:\\.${LABEL})*|\\[[0-9a-f:.]+\\])`;
const PORT = '(?::(?:[1-9][0-9]{0,4}))?';
const EXACT_ORIGIN = new RegExp(`^(https?)://(${HOST}${PORT})$`);
const WILDCARD_ORIGIN = new RegExp(`^(?:(https?)://)?\\*\\.(${LABEL}(?:\\.${LABEL})*${PORT})$`);

/** The canonical form of an origin pattern (lower case, no trailing slash), or why it is not one. */
export function canonicalOrigin(raw: string): { ok: true; value: string } | { ok: false; error: string } {
  const v = raw.trim().toLowerCase().replace(/\/$/, '');
  const bad = { ok: false as const, error: `"${raw.slice(0, 100)}" is not an origin pattern: write an origin such as https://app.example.com, or *.example.com for every subdomain of example.com.` };
  if (v.length === 0 || v.length > 260) return bad;
  const port = /:(\d+)$/.exec(v)?.[1];
  if (port !== undefined && Number(port) > 65535) return bad;
  const exact = EXACT_ORIGIN.exec(v);
  if (exact) {
    if (exact[2]!.startsWith('[') && !parseIpv6(exact[2]!.replace(/\]:\d+$/, ']').slice(1, -1))) return bad;
    // The default port is never part of an Origin header.
    const value = v.replace(/^https:\/\/(.*):443$/, 'https://$1').replace(/^http:\/\/(.*):80$/, 'http://$1');
    return { ok: true, value };
  }
  const wild = WILDCARD_ORIGIN.exec(v);
  // '*.com' would allow every .com site: a wildcard needs a registrable-looking domain (two labels).
  if (wild && wild[2]!.replace(/:\d+$/, '').includes('.')) return { ok: true, value: v };
  return bad;
}

// ---------------------------------------------------------------------------------------------
// IP addresses and CIDRs. IPv4 as one 32-bit number; IPv6 as four. An IPv4-mapped IPv6 entry
// (::ffff:10.0.0.0/104) is stored as its IPv4 form, and an IPv4-mapped client address is matched as
// the IPv4 address inside (dual-stack sockets report IPv4 clients that way).

type ParsedCidr = { v: 4; addr: number; bits: number } | { v: 6; words: [number, number, number, number]; bits: number };

const v4Number = (b: number[]): number => ((b[0]! << 24) | (b[1]! << 16) | (b[2]! << 8) | b[3]!) >>> 0;
const wordsOf = (g: number[]): [number, number, number, number] => [((g[0]! << 16) | g[1]!) >>> 0, ((g[2]! << 16) | g[3]!) >>> 0, ((g[4]! << 16) | g[5]!) >>> 0, ((g[6]! << 16) | g[7]!) >>> 0];
const maskOf = (bits: number): number => (bits <= 0 ? 0 : bits >= 32 ? 0xffffffff : (0xffffffff << (32 - bits)) >>> 0);
const isMapped = (g: number[]): boolean => g[0] === 0 && g[1] === 0 && g[2] === 0 && g[3] === 0 && g[4] === 0 && g[5] === 0xffff;

const formatV4 = (n: number): string => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
const formatV6 = (w: [number, number, number, number]): string => {
  const g = w.flatMap((x) => [x >>> 16, x & 0xffff]);
  // The longest run of two or more zero groups becomes '::' (RFC 5952).
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8; ) {
    if (g[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && g[j] === 0) j++;
    if (j - i > bestLen) [best, bestLen] = [i, j - i];
    i = j;
  }
  const hex = g.map((x) => x.toString(16));
  if (best === -1) return hex.join(':');
  return `${hex.slice(0, best).join(':')}::${hex.slice(best + bestLen).join(':')}`;
};

function parseCidr(raw: string): ParsedCidr | string {
  const v = raw.trim().toLowerCase();
  const bad = `"${raw.slice(0, 100)}" is not an IP address or CIDR range: write 203.0.113.7, 203.0.113.0/24, 2001:db8::1 or 2001:db8::/32.`;
  const slash = v.indexOf('/');
  const addr = slash === -1 ? v : v.slice(0, slash);
  const prefix = slash === -1 ? null : v.slice(slash + 1);
  if (prefix !== null && !/^\d{1,3}$/.test(prefix)) return bad;
  const v4 = parseIpv4(addr);
  if (v4) {
    const bits = prefix === null ? 32 : Number(prefix);
    if (bits > 32) return `"${raw.slice(0, 100)}": an IPv4 prefix length is 0 to 32.`;
    return { v: 4, addr: v4Number(v4), bits };
  }
  const g = parseIpv6(addr);
  if (!g) return bad;
  const bits = prefix === null ? 128 : Number(prefix);
  if (bits > 128) return `"${raw.slice(0, 100)}": an IPv6 prefix length is 0 to 128.`;
  if (isMapped(g) && bits >= 96) return { v: 4, addr: v4Number([g[6]! >> 8, g[6]! & 255, g[7]! >> 8, g[7]! & 255]), bits: bits - 96 };
  return { v: 6, words: wordsOf(g), bits };
}

/** The canonical form of an IP address or CIDR range (no host bits past the prefix), or why it is not one. */
export function canonicalCidr(raw: string): { ok: true; value: string } | { ok: false; error: string } {
  const p = parseCidr(raw);
  if (typeof p === 'string') return { ok: false, error: p };
  if (p.v === 4) {
    const net = (p.addr & maskOf(p.bits)) >>> 0;
    if (net !== p.addr) return { ok: false, error: `"${raw.slice(0, 100)}" has bits set past its /${p.bits} prefix: did you mean ${formatV4(net)}/${p.bits}?` };
    return { ok: true, value: p.bits === 32 ? formatV4(net) : `${formatV4(net)}/${p.bits}` };
  }
  const net = p.words.map((w, i) => (w & maskOf(p.bits - 32 * i)) >>> 0) as [number, number, number, number];
  if (net.some((w, i) => w !== p.words[i])) return { ok: false, error: `"${raw.slice(0, 100)}" has bits set past its /${p.bits} prefix: did you mean ${formatV6(net)}/${p.bits}?` };
  return { ok: true, value: p.bits === 128 ? formatV6(net) : `${formatV6(net)}/${p.bits}` };
}

/** The canonical form of a JSON-RPC method name for the allow-list, or why it cannot be on it. */
export function canonicalMethod(raw: string): { ok: true; value: string } | { ok: false; error: string } {
  const v = raw.trim();
  if (ALLOWED_EVM_METHODS.has(v)) return { ok: true, value: v };
  return { ok: false, error: `"${raw.slice(0, 100)}" is not a JSON-RPC method this gateway serves: choose among ${[...ALLOWED_EVM_METHODS].join(', ')}.` };
}

const listOf = (what: string, canonical: (raw: string) => { ok: true; value: string } | { ok: false; error: string }) =>
  z
    .array(z.string().max(300, `Each ${what} entry is at most 300 characters.`), { error: `${what} must be a list of strings.` })
    .max(MAX_ALLOW_LIST_ENTRIES, `An allow-list holds at most ${MAX_ALLOW_LIST_ENTRIES} entries.`)
    .transform((entries, ctx) => {
      const out: string[] = [];
      for (const raw of entries) {
        if (raw.trim() === '') continue;
        const c = canonical(raw);
        if (!c.ok) {
          ctx.addIssue({ code: 'custom', message: c.error });
          return z.NEVER;
        }
        if (!out.includes(c.value)) out.push(c.value);
      }
      return out;
    });

/** PUT …/projects/{uuid}/allow-lists: each list replaces the stored one; an empty list lifts its restriction. */
export const allowListsSchema = z.object({
  origins: listOf('Origins', canonicalOrigin).default([]),
  ips: listOf('IP addresses', canonicalCidr).default([]),
  methods: listOf('Methods', canonicalMethod).default([]),
});

/** Entries of a textarea, one a line; blank lines are skipped. */
const linesOf = (text: string): string[] =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');

/** A list typed one entry a line: its messages are the list's own, shown on the field as a whole. */
const textList = (list: (typeof allowListsSchema.shape)['origins']) =>
  z.string().transform((text, ctx) => {
    const parsed = list.safeParse(linesOf(text));
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', message: issue.message });
    return z.NEVER;
  });

/** The dashboard's allow-lists card: origins and addresses as text, one a line; its output is the PUT's body. */
export const allowListsFormSchema = z.object({
  origins: textList(allowListsSchema.shape.origins),
  ips: textList(allowListsSchema.shape.ips),
  methods: allowListsSchema.shape.methods,
});

// ---------------------------------------------------------------------------------------------
// The gateway's compiled form.

export interface CompiledAllowList {
  /** null: any origin (and none) may call. */
  origin: ((origin: string | undefined) => boolean) | null;
  /** null: any address may call. */
  ip: ((ip: string) => boolean) | null;
  /** null: any method the gateway serves. */
  methods: ReadonlySet<string> | null;
}

/** A host name of non-empty labels, with an optional port: what follows 'scheme://' in an origin. */
const HOST_AND_PORT = /^[a-z0-9_-]+(?:\.[a-z0-9_-]+)*(?::\d{1,5})?$/;

/** An origin matcher: a Set of exact origins, and a map from '.domain[:port]' suffix to the schemes it allows. */
export function compileOrigins(patterns: readonly string[]): (origin: string | undefined) => boolean {
  const exact = new Set<string>();
  const suffixes = new Map<string, { http: boolean; https: boolean }>();
  for (const p of patterns) {
    if (!p.includes('*')) {
      exact.add(p);
      continue;
    }
    const star = p.indexOf('*.');
    const scheme = star === 0 ? null : p.slice(0, star - 3);
    const suffix = p.slice(star + 1);
    const s = suffixes.get(suffix) ?? { http: false, https: false };
    if (scheme === null || scheme === 'http') s.http = true;
    if (scheme === null || scheme === 'https') s.https = true;
    suffixes.set(suffix, s);
  }
  return (raw) => {
    if (!raw) return false;
    // Browsers send lower-case origins; a hand-written one is compared as a browser would write it.
    const origin = raw.length <= 300 ? raw.toLowerCase() : '';
    if (exact.has(origin)) return true;
    if (suffixes.size === 0) return false;
    const sep = origin.indexOf('://');
    if (sep === -1) return false;
    const scheme = origin.slice(0, sep);
    if (scheme !== 'https' && scheme !== 'http') return false;
    const host = origin.slice(sep + 3);
    // A wildcard matches a host name (and port) only: 'https://evil.com/.wild.example' has a path.
    if (!HOST_AND_PORT.test(host)) return false;
    // Each '.suffix' of the host from the first dot on: a.b.example.com tries .b.example.com, .example.com, .com.
    for (let dot = host.indexOf('.'); dot > 0; dot = host.indexOf('.', dot + 1)) {
      const s = suffixes.get(host.slice(dot));
      if (s && (scheme === 'https' ? s.https : s.http)) return true;
    }
    return false;
  };
}

/** The 32-bit IPv4 number of a dotted quad (fast path, no allocation); -1 when it is not one. */
function fastV4(ip: string, from: number): number {
  let n = 0;
  let part = 0;
  let digits = 0;
  let dots = 0;
  for (let i = from; i < ip.length; i++) {
    const c = ip.charCodeAt(i);
    if (c === 46) {
      if (digits === 0 || dots === 3) return -1;
      n = n * 256 + part;
      part = 0;
      digits = 0;
      dots++;
    } else if (c >= 48 && c <= 57) {
      part = part * 10 + (c - 48);
      if (++digits > 3 || part > 255) return -1;
    } else return -1;
  }
  if (dots !== 3 || digits === 0) return -1;
  return n * 256 + part;
}

/** An address matcher over canonical entries (canonicalCidr): IPv4 ranges as (network, mask), IPv6 as four of each. */
export function compileIps(entries: readonly string[]): (ip: string) => boolean {
  const v4: number[] = [];
  const v6: number[] = [];
  for (const e of entries) {
    const p = parseCidr(e);
    if (typeof p === 'string') continue;
    if (p.v === 4) v4.push((p.addr & maskOf(p.bits)) >>> 0, maskOf(p.bits));
    else for (let i = 0; i < 4; i++) v6.push((p.words[i]! & maskOf(p.bits - 32 * i)) >>> 0, maskOf(p.bits - 32 * i));
  }
  const matchV4 = (n: number): boolean => {
    for (let i = 0; i < v4.length; i += 2) if ((n & v4[i + 1]!) >>> 0 === v4[i]) return true;
    return false;
  };
  return (ip) => {
    let n = fastV4(ip, 0);
    if (n === -1 && ip.startsWith('::ffff:')) n = fastV4(ip, 7);
    if (n !== -1) return matchV4(n);
    if (v6.length === 0 && v4.length === 0) return false;
    const g = parseIpv6(ip.toLowerCase().replace(/%.*$/, ''));
    if (!g) return false;
    if (isMapped(g)) return matchV4(v4Number([g[6]! >> 8, g[6]! & 255, g[7]! >> 8, g[7]! & 255]));
    const w = wordsOf(g);
    for (let i = 0; i < v6.length; i += 8) {
      if ((w[0] & v6[i + 1]!) >>> 0 === v6[i] && (w[1] & v6[i + 3]!) >>> 0 === v6[i + 2] && (w[2] & v6[i + 5]!) >>> 0 === v6[i + 4] && (w[3] & v6[i + 7]!) >>> 0 === v6[i + 6]) return true;
    }
    return false;
  };
}

/** Answers remembered per matcher: a project's callers are few, so most checks are one map look-up, like the key's. */
const MEMO_ENTRIES = 256;

/** `match` with its answers remembered (forgotten all at once when MEMO_ENTRIES are held, so a flood of new values costs no memory). */
export function memoized(match: (value: string) => boolean): (value: string | undefined) => boolean {
  const memo = new Map<string, boolean>();
  return (value) => {
    if (value === undefined) return match('');
    let known = memo.get(value);
    if (known === undefined) {
      known = match(value);
      if (memo.size >= MEMO_ENTRIES) memo.clear();
      memo.set(value, known);
    }
    return known;
  };
}

/** A project's stored lists compiled for the gateway; null when none restricts anything (the common case costs one check). */
export function compileAllowList(lists: AllowLists): CompiledAllowList | null {
  if (lists.origins.length === 0 && lists.ips.length === 0 && lists.methods.length === 0) return null;
  return {
    origin: lists.origins.length ? memoized(compileOrigins(lists.origins)) : null,
    ip: lists.ips.length ? memoized(compileIps(lists.ips)) : null,
    methods: lists.methods.length ? new Set(lists.methods) : null,
  };
}

/** Stored lists (JSON text columns, null for none) as arrays; anything unreadable is an empty list. */
export function readStoredList(raw: unknown): string[] {
  if (typeof raw !== 'string' || raw === '') return [];
  try {
    const v: unknown = JSON.parse(raw);
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}
