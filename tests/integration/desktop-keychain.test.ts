// The desktop app's keychain module against a real Secret Service (gnome-keyring under dbus-run-session; see
// tests/helpers/with-secret-service.sh) and a real Cairn server for the project's key, names and deletion.
import crypto from 'node:crypto';
import { findCredentialsAsync } from '@napi-rs/keyring';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CairnApi } from '../../desktop/main/cairn-api';
import { Keychain } from '../../desktop/main/keychain';
import { keepProjectKey, listKeptKeys } from '../../desktop/main/kept-keys';
import { Client } from '../helpers/http-client';
import { secretServiceAvailable } from '../helpers/secret-service';
import { signIn } from '../helpers/sign-in';
import { startTestApp, type TestApp } from '../helpers/test-app';
import type { TestDatabase } from '../helpers/db-template';
import { setSubscription } from '../../server/features/workspaces/subscriptions';

const available = await secretServiceAvailable();

describe.runIf(available)('desktop keychain on a real Secret Service', () => {
  // A service name of this run's own, so parallel runs and a developer's real keys never mix.
  const service = `Cairn project keys (test ${crypto.randomUUID()})`;
  let app: TestApp & { database: TestDatabase };
  let owner: Client;
  let keychain: Keychain;
  let api: CairnApi;
  let workspaceId: number;

  const cookieOf = (client: Client) => async () => `cairn.sid=${client.cookies.get('cairn.sid')}`;

  beforeAll(async () => {
    app = await startTestApp();
    owner = new Client(app.url);
    await signIn(owner, app.mailer, 'keeper@example.com');
    // Room for several projects.
    const user = await app.db('users').where({ email: 'keeper@example.com' }).first('id');
    await setSubscription(app.db, user.id, 'DEVELOPER', 'active');
    workspaceId = (await owner.get('/api/workspaces')).body.data[0].id;
    await owner.put(`/api/workspaces/${workspaceId}`, { name: 'Keeper workspace' });
    keychain = new Keychain(app.url, { service });
    api = new CairnApi(app.url, cookieOf(owner));
  });
  afterAll(async () => {
    for (const { account } of await findCredentialsAsync(service).catch(() => [])) {
      await new Keychain(account.split(' ')[0]!, { service }).remove(account.split(' ')[1]!).catch(() => undefined);
    }
    await app?.stop();
    await app?.database.drop();
  });

  const createProject = async (name: string, networkId = 0) => {
    const res = await owner.post(`/api/workspaces/${workspaceId}/projects`, { projectName: name, networkId });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data.project as { uuid: string; project_id: string };
  };

  it('keeps a project key with its project, network and workspace; lists it without the key; the main process can read it', async () => {
    const project = await createProject('Kept on preprod', 6);
    const kept = await keepProjectKey(api, keychain, project.uuid);
    expect(kept).toEqual({
      projectUuid: project.uuid,
      projectName: 'Kept on preprod',
      networkId: 6,
      workspaceId,
      workspaceName: 'Keeper workspace',
      keptAt: expect.any(Number),
      status: 'active',
    });
    expect(JSON.stringify(kept)).not.toContain(project.project_id);

    const listed = await listKeptKeys(api, keychain);
    expect(listed).toEqual([kept]);
    expect(JSON.stringify(listed)).not.toContain(project.project_id);
    await expect(keychain.secretFor(project.uuid)).resolves.toBe(project.project_id);

    // It is in the Secret Service itself, under this server's origin.
    const items = await findCredentialsAsync(service);
    expect(items.map((i) => i.account)).toContain(`${app.url} ${project.uuid}`);
  });

  it("flags a kept key once the project's key was rolled past it, and keeps it active during the grace period", async () => {
    const project = await createProject('Rolled');
    await keepProjectKey(api, keychain, project.uuid);
    const roll = (grace: string) => owner.post(`/api/workspaces/${workspaceId}/projects/${project.uuid}/roll-key`, { grace });
    expect((await roll('1h')).status).toBe(200);
    expect((await listKeptKeys(api, keychain)).find((k) => k.projectUuid === project.uuid)?.status).toBe('active');
    expect((await roll('none')).status).toBe(200);
    expect((await listKeptKeys(api, keychain)).find((k) => k.projectUuid === project.uuid)?.status).toBe('rolled');
    // Kept again: the new key.
    await keepProjectKey(api, keychain, project.uuid);
    expect((await listKeptKeys(api, keychain)).find((k) => k.projectUuid === project.uuid)?.status).toBe('active');
    await keychain.remove(project.uuid);
  });

  it('flags the key of a deleted project, and removes it on request', async () => {
    const project = await createProject('Soon deleted');
    await keepProjectKey(api, keychain, project.uuid);
    const del = await owner.request('DELETE', `/api/workspaces/${workspaceId}/projects/${project.uuid}`);
    expect(del.status, JSON.stringify(del.body)).toBe(200);

    const listed = await listKeptKeys(api, keychain);
    expect(listed.find((k) => k.projectUuid === project.uuid)?.status).toBe('deleted');
    expect(listed.filter((k) => k.projectUuid !== project.uuid).every((k) => k.status === 'active')).toBe(true);

    await expect(keychain.remove(project.uuid)).resolves.toBe(true);
    await expect(keychain.secretFor(project.uuid)).resolves.toBeNull();
    expect((await keychain.list()).some((k) => k.projectUuid === project.uuid)).toBe(false);
    await expect(keychain.remove(project.uuid)).resolves.toBe(false);
  });

  it("refuses to keep another user's project and says 'unknown' when the server cannot be asked", async () => {
    const stranger = new Client(app.url);
    await signIn(stranger, app.mailer, 'stranger@example.com');
    const theirs = (await stranger.get('/api/workspaces')).body.data[0].id;
    const res = await stranger.post(`/api/workspaces/${theirs}/projects`, { projectName: 'Not yours', networkId: 0 });
    await expect(keepProjectKey(api, keychain, res.body.data.project.uuid)).rejects.toThrow('Project not found.');
    expect((await keychain.list()).some((k) => k.projectName === 'Not yours')).toBe(false);

    const signedOut = new CairnApi(app.url, async () => null);
    const project = await createProject('Asked while signed out');
    await expect(keepProjectKey(signedOut, keychain, project.uuid)).rejects.toThrow('Sign in to Cairn in the app first.');
    await keepProjectKey(api, keychain, project.uuid);
    const offline = new CairnApi('http://127.0.0.1:9', async () => null);
    const listed = await listKeptKeys(new CairnApi(app.url, async () => null), keychain);
    expect(new Set(listed.map((k) => k.status))).toEqual(new Set(['unknown']));
    expect(await listKeptKeys(offline, new Keychain('http://127.0.0.1:9', { service }))).toEqual([]);
  });

  it("keeps each server's keys apart", async () => {
    const other = new Keychain('http://cairn.other.example', { service });
    expect(await other.list()).toEqual([]);
  });
});
