import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/use-test-app';
import { Client } from '../helpers/http-client';
import { signIn } from '../helpers/sign-in';
import { makeProject, makeUser, makeWorkspace } from '../helpers/workspace-fixture';
import { AUDIT_DETAIL_MAX_CHARS } from '../../server/features/audit/audit';
import { TOO_MANY_WRITES_MESSAGE } from '../../server/http/write-limit';

// A member who writes in a loop (a script renaming a project hundreds of times) can neither flood
// the workspace's audit log nor bury it: writes are limited per user, and an entry's details are
// bounded however large the change.
const app = useTestApp({ env: { DASHBOARD_WRITE_BURST: '8', DASHBOARD_WRITES_PER_MINUTE: '1' } });

let maintainer: Client;
let other: Client;
let first: { ws: number; project: string };
let second: { ws: number; project: string };

beforeAll(async () => {
  const owner = await makeUser(app.db, 'owner@write-limit.example', 'ENTERPRISE');
  const member = await makeUser(app.db, 'maintainer@write-limit.example');
  const bystander = await makeUser(app.db, 'other@write-limit.example');
  const ws1 = await makeWorkspace(app.db, owner.id, [{ userId: member.id, role: 'maintainer' }, { userId: bystander.id, role: 'maintainer' }]);
  const ws2 = await makeWorkspace(app.db, owner.id, [{ userId: member.id, role: 'maintainer' }], 'Second workspace');
  first = { ws: ws1, project: await makeProject(app.db, ws1) };
  second = { ws: ws2, project: await makeProject(app.db, ws2) };
  maintainer = new Client(app.url);
  await signIn(maintainer, app.mailer, 'maintainer@write-limit.example');
  other = new Client(app.url);
  await signIn(other, app.mailer, 'other@write-limit.example');
});

const rename = (c: Client, at: { ws: number; project: string }, name: string) => c.put(`/api/workspaces/${at.ws}/projects/${at.project}`, { projectName: name });
const entries = async (ws: number) => Number((await app.db('audit_entries').where({ workspace_id: ws, action: 'project.renamed' }).count({ n: '*' }))[0]!.n);

describe('state-changing dashboard requests', () => {
  it('are limited per user across workspaces: past the burst, 429 with Retry-After, nothing changed and nothing recorded', async () => {
    for (let i = 0; i < 8; i++) expect((await rename(maintainer, first, `Loop ${i}`)).status).toBe(200);
    const refused = await rename(maintainer, first, 'One too many');
    expect(refused.status).toBe(429);
    expect(refused.body.error).toEqual({ code: 'too_many_requests', message: TOO_MANY_WRITES_MESSAGE });
    // One a minute here: the next is due within the minute (the refill itself is a unit test's).
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect((await app.db('projects').where({ uuid: first.project }).first('name')).name).toBe('Loop 7');
    expect(await entries(first.ws)).toBe(8);
    // The same user in another workspace: the limit is theirs, not the workspace's.
    expect((await rename(maintainer, second, 'Elsewhere')).status).toBe(429);
    expect(await entries(second.ws)).toBe(0);
    // Reading goes on, and another member is not affected.
    expect((await maintainer.get(`/api/workspaces/${first.ws}/projects/${first.project}`)).status).toBe(200);
    expect((await rename(other, first, 'By someone else')).status).toBe(200);
  });

  it('record bounded details however large the change (a full allow-list)', async () => {
    const origins = Array.from({ length: 100 }, (_, i) => `https://a-rather-long-subdomain-name-${i}.wallet-frontend.example.com`);
    const ips = Array.from({ length: 100 }, (_, i) => `2001:db8:${i.toString(16)}::/48`);
    const res = await other.put(`/api/workspaces/${first.ws}/projects/${first.project}/allow-lists`, { origins, ips, methods: [] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const row = await app.db('audit_entries').where({ workspace_id: first.ws, action: 'project.allowlist_changed' }).orderBy('id', 'desc').first('details');
    const details = JSON.parse(row.details as string) as Record<string, string>;
    expect(details.origins!.length).toBe(AUDIT_DETAIL_MAX_CHARS);
    expect(details.origins!.endsWith('…')).toBe(true);
    expect(details.origins!.startsWith(origins[0]!)).toBe(true);
    expect(details.ips!.length).toBe(AUDIT_DETAIL_MAX_CHARS);
    expect((row.details as string).length).toBeLessThan(4 * AUDIT_DETAIL_MAX_CHARS);
  });
});
