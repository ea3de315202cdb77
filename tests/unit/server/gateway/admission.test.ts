import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAdmission, type AdmissionContext } from '../../../../server/gateway/admission';
import type { ProjectKey } from '../../../../server/gateway/key-cache';
import { MemoryLimiter } from '../../../../server/gateway/limiter';
import type { MeteredRequest } from '../../../../server/gateway/metering';
import { REFUSALS } from '../../../../server/gateway/refusals';
import { compileAllowList } from '../../../../shared/allow-list';

const KEY = `mainnet${'a'.repeat(32)}`;
const NEW_KEY = `mainnet${'b'.repeat(32)}`;

const projectKey = (over: Partial<ProjectKey> = {}): ProjectKey => ({
  key: KEY,
  projectId: 1,
  uuid: 'p-1',
  workspaceId: 5,
  ownerId: 9,
  quotaKey: 'owner-9',
  network: 'cardano-mainnet',
  limitPerSecond: 10,
  limitBurst: 3,
  requestLimit: 1000,
  websocketConnections: 5,
  status: 'active',
  ppuCredited: 0,
  ppuSpent: 0,
  balanceKey: '5',
  allow: null,
  ...over,
});

/** A key cache holding `keys`; `later` join it when it catches up. */
function admissionWith(keys: ProjectKey[], later: ProjectKey[] = [], disabled: string[] = []) {
  const known = new Map(keys.map((k) => [k.key, k]));
  const records: MeteredRequest[] = [];
  const limiter = new MemoryLimiter({ threshold: 1000, windowSeconds: 60, seconds: 60 });
  limiters.push(limiter);
  const admission = createAdmission({
    keys: {
      lookup: (k: string) => known.get(k),
      catchUp: async () => void later.forEach((k) => known.set(k.key, k)),
    },
    limiter,
    meter: { record: (r) => void records.push({ ...r }) },
    disabled: new Set(disabled),
    now: () => Date.UTC(2026, 0, 2),
  });
  return { admission, records };
}
const limiters: MemoryLimiter[] = [];
afterEach(async () => {
  for (const l of limiters.splice(0)) await l.close();
});

// A websocket frame or a devnet's steering call: no HTTP request, the same steps.
const frame = (over: Partial<AdmissionContext> = {}): AdmissionContext => ({ key: KEY, ip: '203.0.113.7', endpoint: 'ws:subscribe', ...over });

describe('the admission steps without an HTTP request', () => {
  it('refuses by the key step with the table entries', async () => {
    const { admission, records } = admissionWith([projectKey(), projectKey({ key: 'preprod-key', network: 'cardano-preprod', status: 'incomplete_expired' })], [], ['cardano-preview']);
    expect(await admission.admit(frame({ key: undefined }))).toEqual({ admitted: false, refusal: REFUSALS.missingKey });
    expect(await admission.admit(frame({ key: 'nonsense' }))).toEqual({ admitted: false, refusal: REFUSALS.invalidKey });
    expect(await admission.admit(frame({ key: [KEY, KEY] }))).toEqual({ admitted: false, refusal: REFUSALS.invalidKey });
    expect(await admission.admit(frame({ network: 'cardano-preprod' }))).toEqual({ admitted: false, refusal: REFUSALS.mismatch });
    expect(await admission.admit(frame({ jsonRpcRoot: true }))).toEqual({ admitted: false, refusal: REFUSALS.mismatch });
    expect(await admission.admit(frame({ key: 'preprod-key' }))).toEqual({ admitted: false, refusal: REFUSALS.restricted });
    // Refused by the key step: costs nothing and is not metered.
    expect(records).toEqual([]);
  });

  it('looks a key up again once the cache caught up (a key created a moment ago)', async () => {
    const { admission } = admissionWith([], [projectKey({ key: NEW_KEY })]);
    const decision = await admission.admit(frame({ key: NEW_KEY }));
    expect(decision.admitted).toBe(true);
  });

  it('refuses by an allow-list before any limit, metered as refused and never toward the quota', async () => {
    const allow = compileAllowList({ origins: ['https://dapp.example'], ips: [], methods: [] });
    const { admission, records } = admissionWith([projectKey({ allow })]);
    expect(await admission.admit(frame({ origin: 'https://evil.example' }))).toEqual({ admitted: false, refusal: REFUSALS.origin });
    expect(records).toMatchObject([{ projectId: 1, endpoint: 'ws:subscribe', status: 403, admitted: false, refused: 1 }]);
    expect((await admission.admit(frame({ origin: 'https://dapp.example' }))).admitted).toBe(true);
  });

  it('takes the bucket and the quota like a request, metering each refusal with its status and text', async () => {
    const { admission, records } = admissionWith([projectKey({ limitBurst: 2, limitPerSecond: 0.0001 })]);
    const decisions = [await admission.admit(frame()), await admission.admit(frame()), await admission.admit(frame())];
    expect(decisions.map((d) => d.admitted)).toEqual([true, true, false]);
    expect(decisions[2]).toEqual({ admitted: false, refusal: REFUSALS.rate_limited });
    expect(records).toMatchObject([{ status: 429, message: REFUSALS.rate_limited.message, admitted: false }]);
    // An admitted call is metered once it has been answered.
    const first = decisions[0]!;
    if (!first.admitted) throw new Error('admitted');
    admission.answered(first.record, 200);
    expect(records[1]).toMatchObject({ status: 200, admitted: true, endpoint: 'ws:subscribe', ownerId: 9 });
  });

  it('passes the pay-as-you-go balance to the limits step for every project, with or without credit', () => {
    const { admission } = admissionWith([]);
    for (const credited of [0, 50]) {
      const call = admission.admittedCall(projectKey({ ppuCredited: credited, ppuSpent: 3 }), '1.2.3.4', Date.UTC(2026, 0, 2), 0, undefined);
      expect(call).toMatchObject({ bucketKey: 'p-1', quotaKey: 'owner-9', balanceKey: '5', balanceCredited: credited, balanceSpentBase: 3 });
    }
  });

  it('pays past the quota from the balance, then refuses with over_quota', async () => {
    const { admission } = admissionWith([projectKey({ requestLimit: 1, ppuCredited: 1, limitBurst: 100 })]);
    const verdicts = [await admission.admit(frame()), await admission.admit(frame()), await admission.admit(frame())];
    expect(verdicts.map((d) => (d.admitted ? 'ok' : d.refusal))).toEqual(['ok', 'ok', REFUSALS.over_quota]);
  });
});

describe('refusal texts', () => {
  const root = path.resolve(import.meta.dirname, '../../../..');
  const files = (dir: string): string[] =>
    fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : []));

  it('are spelled once: each refusal of the data plane is written only in its table', () => {
    const own = new Set(['server/gateway/refusals.ts', 'server/blockfrost/http.ts', 'shared/allow-list.ts']);
    const sources = [...files('server'), ...files('shared')].filter((f) => !own.has(f)).map((f) => [f, fs.readFileSync(path.join(root, f), 'utf8')] as const);
    for (const { message } of Object.values(REFUSALS)) {
      const copies = sources.filter(([, text]) => text.includes(message)).map(([f]) => f);
      expect(copies, message).toEqual([]);
    }
  });
});
