// The metering flush against hostile text: user agents and endpoints with quotes, backslashes, NUL,
// SQL, placeholders, very long strings and broken UTF-16 or UTF-8. Every flush succeeds and stores
// each text as sent, or as the flush's one sanitising (NUL dropped, cut to 255, made well-formed).
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { freshDatabase, type TestDatabase } from '../helpers/db-template';
import { makeProject, makeUser, makeWorkspace } from '../helpers/workspace-fixture';
import { useTestApp, useTestGateway } from '../helpers/use-test-app';
import { Meter, type MeteredRequest } from '../../server/gateway/metering';
import { createLogger } from '../../server/logger';
import { setSubscription } from '../../server/features/workspaces/subscriptions';
import { DAY_MS } from '../../shared/time';

const logger = createLogger('silent');
/** The flush's one sanitising: NUL dropped, cut to 255 UTF-16 units, lone surrogates made U+FFFD. */
const clean = (s: string, max: number) => s.replace(/\0/g, '').slice(0, max).toWellFormed();
const AT = Date.UTC(2026, 10, 23, 9, 0, 0);
const DAY = AT - (AT % DAY_MS);

/** A small deterministic generator, so a failure names texts that can be found again. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const PIECES = ["'", "''", '"', '\\', "\\'", '\0', '?', '??', '$1', ':x', '; drop table usage_dimensions; --', "'); drop table projects; --", '\uD800', '\uDFFF', '\uD83D\uDE00', 'é', '\u2028', '\n', '\t', 'ÿ\u00fe', '/*', '*/', ' ', 'x'];

function hostile(random: () => number): string {
  const n = 1 + Math.floor(random() * 12);
  let s = '';
  for (let i = 0; i < n; i++) s += PIECES[Math.floor(random() * PIECES.length)];
  // Now and then a very long one (past the 255 the flush keeps), cut anywhere, a surrogate pair too.
  if (random() < 0.2) s = s + '\uD83D\uDE00'.repeat(100 + Math.floor(random() * 300)) + "'\\";
  return s;
}

describe('metering flush with hostile texts', () => {
  let database: TestDatabase;
  let ownerId: number;
  let projectId: number;

  beforeAll(async () => {
    database = await freshDatabase(inject('dbTemplate'));
    const owner = await makeUser(database.db, 'metering-fuzz@example.com', 'ENTERPRISE');
    ownerId = owner.id;
    const ws = await makeWorkspace(database.db, owner.id, []);
    const uuid = await makeProject(database.db, ws, 'fuzz');
    projectId = Number((await database.db('projects').where({ uuid }).first('id')).id);
  });
  afterAll(() => database.drop());

  const request = (over: Partial<MeteredRequest>): MeteredRequest => ({
    projectId,
    ownerId,
    endpoint: '/blocks/latest',
    status: 200,
    ip: '198.51.100.7',
    userAgent: 'curl/8.5.0',
    admitted: true,
    at: AT,
    started: performance.now(),
    ...over,
  });

  it('flushes every hostile endpoint and user agent and stores each as sent or as cleaned, counted once per stored text', async () => {
    const random = rng(20261123);
    const meter = new Meter(database.db, logger, 60_000);
    const endpoints = new Map<string, number>();
    const failures: string[] = [];
    for (let i = 0; i < 300; i++) {
      const endpoint = hostile(random);
      const userAgent = hostile(random);
      const status = random() < 0.3 ? 404 : 200;
      meter.record(request({ endpoint, userAgent, status }));
      const stored = clean(endpoint, 255);
      endpoints.set(stored, (endpoints.get(stored) ?? 0) + 1);
      if (status === 404) failures.push(stored);
    }
    // Two texts that differ only in what the cleaning removes or cuts off: one stored value.
    const long = "a'".repeat(200);
    for (const endpoint of [long + 'X', long + 'Y', 'nul\0', 'nul']) {
      meter.record(request({ endpoint }));
      const stored = clean(endpoint, 255);
      endpoints.set(stored, (endpoints.get(stored) ?? 0) + 1);
    }
    expect(endpoints.get('nul')).toBe(2);
    expect(endpoints.get(clean(long, 255))).toBe(2);
    await meter.flush();

    const day = new Map(
      (await database.db('usage_dimensions').where({ project_id: projectId, dimension: 'endpoint', day_ms: DAY }).select('value', 'requests')).map((r) => [r.value as string, Number(r.requests)]),
    );
    expect(day).toEqual(endpoints);
    const window = new Map((await database.db('usage_window').where({ project_id: projectId, dimension: 'endpoint' }).select('value', 'requests')).map((r) => [r.value as string, Number(r.requests)]));
    expect(window).toEqual(endpoints);
    expect(await database.db('usage_rollups').where({ project_id: projectId, granularity: 'd' }).first('requests')).toMatchObject({ requests: 304 });
    // The failed-request log holds its newest entries, as sent.
    const logged = await database.db('failed_requests').where({ project_id: projectId }).orderBy('id').pluck('endpoint');
    expect(logged).toEqual(failures.slice(-logged.length));
    expect(logged.length).toBeGreaterThan(0);
    // Every stored text is well-formed and holds no NUL.
    for (const v of day.keys()) expect(v === v.toWellFormed() && !v.includes('\0') && v.length <= 255).toBe(true);
    // Nothing was dropped: the tables the SQL in the texts names are still there.
    expect(await database.db.schema.hasTable('usage_dimensions')).toBe(true);
    expect(await database.db.schema.hasTable('projects')).toBe(true);
  });

  it('stores user agents as sent (the browser dimension is their first product token)', async () => {
    const meter = new Meter(database.db, logger, 60_000);
    const uas = ["it's", 'a\\b', "O'Reilly/1.0 (x'); drop table users; --)", 'x\0y/2'];
    for (const ua of uas) meter.record(request({ userAgent: ua, at: AT + DAY_MS }));
    await meter.flush();
    const browsers = await database.db('usage_dimensions').where({ project_id: projectId, dimension: 'browser', day_ms: DAY + DAY_MS }).pluck('value');
    expect(new Set(browsers)).toEqual(new Set(['it', 'a', 'O', 'x']));
  });
});

describe('metering flush of raw requests whose bytes are not UTF-8', () => {
  const app = useTestApp();
  const gw = useTestGateway(app);
  let key = '';
  let projectId = 0;

  beforeAll(async () => {
    const owner = await makeUser(app.db, 'metering-raw@example.com', 'ENTERPRISE');
    await setSubscription(app.db, owner.id, 'ENTERPRISE', 'active');
    const ws = await makeWorkspace(app.db, owner.id, []);
    const uuid = await makeProject(app.db, ws, 'raw');
    const row = await app.db('projects').where({ uuid }).first('id', 'project_id');
    projectId = Number(row.id);
    key = row.project_id as string;
    await gw.keys.catchUp();
  });

  /** Sends one request as raw bytes and answers the status line. */
  const raw = (bytes: Buffer) =>
    new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(new URL(gw.url).port), '127.0.0.1');
      let got = '';
      socket.on('data', (d) => (got += d.toString('latin1')));
      socket.on('end', () => resolve(got));
      socket.on('error', reject);
      // Written, not ended: a client that closes its side at once tells Node's server it left, and an
      // answer made over several turns of the event loop (a sandbox page in slices) is then not sent.
      socket.write(bytes);
    });

  it('meters requests with invalid UTF-8 in the path and the user agent, and stores the user agent as Node read it', async () => {
    const bad = Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xed, 0xa0, 0x80, 0x27, 0x5c, 0x3b]); // not UTF-8, a surrogate's bytes, ', \, ;
    const request = (path: Buffer, ua: Buffer) =>
      Buffer.concat([Buffer.from('GET '), path, Buffer.from(` HTTP/1.1\r\nHost: 127.0.0.1\r\nproject_id: ${key}\r\nConnection: close\r\nUser-Agent: `), ua, Buffer.from('\r\n\r\n')]);
    const statuses = [
      // Node's parser refuses a request line that is not ASCII before the gateway sees it.
      await raw(request(Buffer.concat([Buffer.from('/api/v0/blocks/'), bad]), Buffer.from('curl/8'))),
      await raw(request(Buffer.from("/api/v0/blocks/latest?x='%00%27;drop%20table%20projects"), Buffer.concat([bad, bad]))),
      await raw(request(Buffer.from('/api/v0/blocks/latest'), Buffer.concat([Buffer.from('Bad'), bad, Buffer.from("'); drop table projects; --")]))),
    ].map((answer) => answer.split('\r\n')[0]);
    expect(statuses[0]).toBe('HTTP/1.1 400 Bad Request');
    for (const s of statuses) expect(s).toMatch(/^HTTP\/1\.1 [1-4]\d\d /);
    // A request is counted once its answer has gone out, and a flush that could not write (a busy
    // database) keeps its counts for the next: flushed until both user agents are in.
    const browsers = () => app.db('usage_dimensions').where({ project_id: projectId, dimension: 'browser' }).pluck('value');
    await vi.waitFor(
      async () => {
        await gw.meter.flush();
        // Node reads header bytes as Latin-1 (one character a byte); the browser is the agent's first product token.
        expect(new Set(await browsers())).toEqual(new Set(['Bad', 'unknown']));
      },
      { timeout: 15_000, interval: 200 },
    );
    expect(Number((await app.db('usage_rollups').where({ project_id: projectId, granularity: 'd' }).sum({ n: 'requests' }).first())?.n)).toBe(2);
    const endpoints = await app.db('usage_dimensions').where({ project_id: projectId, dimension: 'endpoint' }).pluck('value');
    expect(endpoints).toEqual(['/blocks/latest']);
    expect(await app.db.schema.hasTable('projects')).toBe(true);
  });
});
