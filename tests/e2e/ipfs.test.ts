import path from 'node:path';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { browserAvailable } from '../helpers/browser';
import { useBrowserApp } from '../helpers/browser-app';
import { ARTIFACTS } from '../helpers/db-template';
import { ipfsMessages } from '../../shared/ipfs';

describe.runIf(browserAvailable())("an IPFS project's page, in Chromium", () => {
  const suite = useBrowserApp();

  it('shows storage against the limit (danger from 85 %), the pins with state, size and Filecoin flag, and the API examples', async () => {
    const { page } = await suite.signIn('ipfs-page@example.com', '/dashboard');
    const workspaceId = ((await (await page.request.get(`${suite.app.url}/api/workspaces`)).json()).data as Array<{ id: number }>)[0]!.id;
    const csrf = (await (await page.request.get(`${suite.app.url}/auth/csrf`)).json()).data.csrfToken as string;
    const created = await page.request.post(`${suite.app.url}/api/workspaces/${workspaceId}/projects`, { headers: { 'X-CSRF-Token': csrf }, data: { projectName: 'Pictures', networkId: 2 } });
    expect(created.status()).toBe(201);
    const { uuid, project } = (await created.json()).data as { uuid: string; project: { project_id: string } };
    const id = (await suite.app.db('projects').where({ uuid }).first('id')).id as number;
    const now = Date.now();
    // What the gateway writes when these are pinned: 86 MB of the STARTER plan's 100 MB, and a Filecoin pin.
    await suite.app.db('ipfs_pins').insert([
      { project_id: id, cid: 'QmT78zSuBmuS4z925WZfrqQ1qHaJ56DQaTfyMUF7F8ff5o', size: 86_000_000, state: 'pinned', filecoin: false, time_created: now - 60_000, time_pinned: now - 60_000, updated_at: now },
      { project_id: id, cid: 'QmSsm9M7PQRBnyiz1smizk8hZw3URfk8fSeHzeTo3oZidS', size: 2_500_000, state: 'queued', filecoin: true, time_created: now, updated_at: now },
    ]);

    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${suite.app.url}/dashboard/project/${uuid}`);
    await page.getByRole('heading', { name: 'IPFS storage' }).waitFor();
    const storage = page.getByTestId('storage-ipfs');
    await expect.poll(() => storage.textContent()).toBe('86 MB of 100 MB');
    expect(await storage.getAttribute('data-danger')).toBe('true');
    expect(await page.getByTestId('storage-filecoin').textContent()).toBe('2.5 MB of 10 MB');
    expect(await page.getByTestId('storage-filecoin').getAttribute('data-danger')).toBe('false');
    expect(await page.getByTestId('no-filecoin-deal').textContent()).toBe(ipfsMessages.noFilecoinDeal);
    const rows = page.getByRole('table', { name: 'Pins of this project' }).getByRole('row');
    expect(await rows.count()).toBe(3);
    expect(await rows.nth(1).innerText()).toMatch(/QmSsm9M7PQ…3oZidS\s+queued\s+2\.5 MB\s+Yes/i);
    expect(await rows.nth(2).innerText()).toMatch(/QmT78zSuBm…F8ff5o\s+pinned\s+86 MB\s+No/i);
    const examples = await page.locator('pre').allTextContents();
    expect(examples.join('\n')).toContain(`-H "project_id: ${project.project_id}"`);
    expect(examples.join('\n')).toMatch(/\/api\/v0\/ipfs\/add/);
    expect(examples.join('\n')).toMatch(/\/api\/v0\/ipfs\/pin\/add\/<ipfs_hash>/);
    expect(examples.join('\n')).toMatch(/\/api\/v0\/ipfs\/gateway\/<ipfs_hash>/);

    const dir = path.join(ARTIFACTS, 'screenshots');
    fs.mkdirSync(dir, { recursive: true });
    await page.screenshot({ path: path.join(dir, 'ipfs-project-1280.png'), fullPage: true });
    await page.setViewportSize({ width: 375, height: 800 });
    await page.getByRole('heading', { name: 'Pins' }).scrollIntoViewIfNeeded();
    // Nothing wider than the phone's screen except the table's own scroll container.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    // The Size column is on the screen without scrolling the table.
    const sizes = page.getByTestId('pin-size');
    for (const i of [0, 1]) {
      const box = (await sizes.nth(i).boundingBox())!;
      expect(box.width).toBeGreaterThan(0);
      expect(box.x + box.width).toBeLessThanOrEqual(375);
    }
    await page.screenshot({ path: path.join(dir, 'ipfs-project-375.png'), fullPage: true });
  });

  it('counts an add not yet pinned in the storage shown, small sizes in KB, as the limit check does', async () => {
    const { page } = await suite.signIn('ipfs-unpinned@example.com', '/dashboard');
    const workspaceId = ((await (await page.request.get(`${suite.app.url}/api/workspaces`)).json()).data as Array<{ id: number }>)[0]!.id;
    const csrf = (await (await page.request.get(`${suite.app.url}/auth/csrf`)).json()).data.csrfToken as string;
    const created = await page.request.post(`${suite.app.url}/api/workspaces/${workspaceId}/projects`, { headers: { 'X-CSRF-Token': csrf }, data: { projectName: 'Drafts', networkId: 2 } });
    const { uuid } = (await created.json()).data as { uuid: string };
    const id = (await suite.app.db('projects').where({ uuid }).first('id')).id as number;
    // What the gateway records for an add of 4,200 bytes that is not pinned yet.
    await suite.app.db('ipfs_objects').insert({ project_id: id, cid: 'QmT78zSuBmuS4z925WZfrqQ1qHaJ56DQaTfyMUF7F8ff5o', name: 'notes.txt', size: 4_200, created_at: Date.now() });
    const quota = (await (await page.request.get(`${suite.app.url}/api/workspaces/${workspaceId}/quota`)).json()).data as { used: { subscription: { storage: number } } };
    expect(quota.used.subscription.storage).toBe(4_200);
    await page.goto(`${suite.app.url}/dashboard/project/${uuid}`);
    await expect.poll(() => page.getByTestId('storage-ipfs').textContent()).toBe('4.2 KB of 100 MB');
  });
});
