// The statistics page's TOP 10 cards and total come from 30-day windows that the metering flush adds
// to and the statistics service moves forward day by day. Checked against a brute-force count of
// the very requests recorded, over 45 simulated days with reads skipped for days at a time.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../helpers/db-template';
import { makeProject, makeUser, makeWorkspace } from '../helpers/workspace-fixture';
import { Meter, type MeteredRequest } from '../../server/gateway/metering';
import { browserOf, countryOf } from '../../server/gateway/metering-core';
import { createLogger } from '../../server/logger';
import { advanceAllWindows, projectStats } from '../../server/features/stats/usage';
import { HISTORY_DAYS, TOP_N } from '../../shared/usage';
import { DAY_MS } from '../../shared/time';

const START = Date.UTC(2026, 8, 1);
let database: TestDatabase;
let ownerId: number;
let projects: number[];

beforeAll(async () => {
  database = await freshDatabase(inject('dbTemplate'));
  const owner = await makeUser(database.db, 'window@example.com', 'ENTERPRISE');
  ownerId = owner.id;
  const ws = await makeWorkspace(database.db, owner.id, []);
  for (let i = 0; i < 3; i++) await makeProject(database.db, ws, `w${i}`);
  projects = (await database.db('projects').where({ workspace_id: ws }).orderBy('id').pluck('id')).map(Number);
});
afterAll(() => database.drop());

/** Deterministic PRNG (mulberry32). */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const IPS = ['8.8.8.8', '1.1.1.1', '81.2.69.142', '2a01:4f8::1', '203.0.113.9', '9.9.9.9', '5.6.7.8', '130.0.0.1', '46.4.0.1', '151.101.1.1', '17.0.0.1', '61.0.0.1', '200.0.0.1'];
const UAS = ['curl/8.5.0', 'axios/1.7', 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36', 'python-requests/2.31', '', 'okhttp/4', 'Go-http-client/1.1'];
const ENDPOINTS = ['/blocks/latest', '/txs/{hash}', '/addresses/{address}', '/epochs/latest', '/pools', '/assets/{asset}', '/network', '/health', '/tx/submit', '/mempool', '/genesis', '/scripts/{script_hash}'];

type Top = Array<{ value: string; requests: number }>;
/** The naive answer: every recorded request of the 30 days, counted and sorted. */
function bruteForce(log: MeteredRequest[], projectId: number, now: number) {
  const from = now - (now % DAY_MS) - (HISTORY_DAYS - 1) * DAY_MS;
  const inWindow = log.filter((r) => r.projectId === projectId && r.at >= from && r.at <= now);
  const topOf = (key: (r: MeteredRequest) => string): Top => {
    const m = new Map<string, number>();
    for (const r of inWindow) m.set(key(r), (m.get(key(r)) ?? 0) + 1);
    return [...m]
      .map(([value, requests]) => ({ value, requests }))
      .sort((x, y) => y.requests - x.requests || (x.value < y.value ? -1 : x.value > y.value ? 1 : 0))
      .slice(0, TOP_N);
  };
  return {
    total: inWindow.length,
    countries: topOf((r) => countryOf(r.ip)),
    ips: topOf((r) => r.ip),
    endpoints: topOf((r) => r.endpoint),
    browsers: topOf((r) => browserOf(r.userAgent ?? '')),
  };
}

describe('30-day statistics windows', () => {
  it('answer exactly what a brute-force count of the requests answers, day after day', async () => {
    const random = rng(7);
    const log: MeteredRequest[] = [];
    let clock = START;
    const meter = new Meter(database.db, createLogger('silent'), 60_000, () => clock);
    const pick = <T,>(xs: T[], skew: number) => xs[Math.floor(random() ** skew * xs.length)]!;
    let checks = 0;
    for (let day = 0; day < 45; day++) {
      // Two flushes a day; projects get traffic on some days only, so windows go stale between reads.
      for (const hour of [3, 15]) {
        clock = START + day * DAY_MS + hour * 3_600_000;
        for (const projectId of projects) {
          if (random() < 0.25) continue;
          const n = 20 + Math.floor(random() * 60);
          for (let k = 0; k < n; k++) {
            const r: MeteredRequest = {
              projectId,
              ownerId,
              endpoint: pick(ENDPOINTS, 1.5),
              status: 200,
              ip: pick(IPS, 2),
              userAgent: pick(UAS, 1.2),
              admitted: true,
              at: clock - Math.floor(random() * 3_000_000),
              started: performance.now(),
            };
            meter.record(r);
            log.push(r);
          }
        }
        await meter.flush();
      }
      // Read project 0 every day, project 1 every 7th day, project 2 only at the end.
      for (const [i, every] of [[0, 1], [1, 7]] as const) {
        if (day % every !== 0) continue;
        const projectId = projects[i]!;
        const got = await projectStats(database.db, projectId, 'ENTERPRISE', clock);
        const want = bruteForce(log, projectId, clock);
        expect(got.total).toBe(want.total);
        expect(got.countries.map((r) => ({ value: r.user_country, requests: r.requests }))).toEqual(want.countries);
        expect(got.ips.map((r) => ({ value: r.ip, requests: r.requests }))).toEqual(want.ips);
        expect(got.endpoints.map((r) => ({ value: r.endpoint, requests: r.requests }))).toEqual(want.endpoints);
        expect(got.browsers.map((r) => ({ value: r.user_agent_browser, requests: r.requests }))).toEqual(want.browsers);
        checks++;
      }
    }
    expect(checks).toBe(45 + 7);

    // Project 2, first read after 45 days of traffic (its window never moved), and again a day later.
    for (const at of [clock, clock + DAY_MS]) {
      const got = await projectStats(database.db, projects[2]!, 'ENTERPRISE', at);
      const want = bruteForce(log, projects[2]!, at);
      expect(got.total).toBe(want.total);
      expect(got.ips.map((r) => ({ value: r.ip, requests: r.requests }))).toEqual(want.ips);
      expect(got.endpoints.map((r) => ({ value: r.endpoint, requests: r.requests }))).toEqual(want.endpoints);
    }

    // 40 days without traffic: the retention job moves every window, and nothing is left in any.
    const later = clock + 40 * DAY_MS;
    expect(await advanceAllWindows(database.db, later)).toBeGreaterThan(0);
    expect(Number((await database.db('usage_window').whereIn('project_id', projects).count({ n: '*' }).first())?.n)).toBe(0);
    const empty = await projectStats(database.db, projects[1]!, 'ENTERPRISE', later);
    expect(empty).toMatchObject({ total: 0, countries: [], ips: [], endpoints: [], browsers: [] });
  }, 60_000);
});
