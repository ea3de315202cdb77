import { describe, expect, it } from 'vitest';
import { browserAvailable } from '../helpers/browser';
import { useBrowserApp } from '../helpers/browser-app';

const OWNER = 'owner@audit-page.example';
const COLLABORATOR = 'collab@audit-page.example';

describe.runIf(browserAvailable())('the audit log page, in Chromium', () => {
  const b = useBrowserApp();

  it('shows the owner the log with filters and export, and a collaborator neither the link nor the log', async () => {
    const owner = await b.signIn(OWNER);
    const o = owner.page;
    const ownerId = (await b.app.db('users').where({ email: OWNER }).first('id')).id as number;
    const ws = (await b.app.db('workspaces').where({ owner_id: ownerId }).first('id')).id as number;

    // The account menu links the selected workspace's log.
    await o.getByRole('button', { name: 'Account menu' }).click();
    await o.getByRole('menuitem', { name: 'Audit log' }).click();
    await o.waitForURL(new RegExp(`/dashboard/workspaces/${ws}/audit$`));
    await o.getByRole('heading', { level: 1, name: 'Audit log' }).waitFor();
    const table = o.getByTestId('audit-table');
    await table.getByRole('cell', { name: 'Member signed in' }).first().waitFor();

    // A filter narrows the rows and the export link alike.
    await o.getByLabel('Action').selectOption('project.created');
    await o.getByText('Nothing matches these filters.').waitFor();
    expect(await o.getByRole('link', { name: 'Export CSV' }).getAttribute('href')).toBe(`/api/workspaces/${ws}/audit/export.csv?action=project.created`);
    await o.getByRole('button', { name: 'Clear filters' }).click();
    await table.getByRole('cell', { name: 'Member signed in' }).first().waitFor();

    // A collaborator of the same workspace: no button on its page, and the log answers as not found.
    const collaborator = await b.signIn(COLLABORATOR);
    const collaboratorId = (await b.app.db('users').where({ email: COLLABORATOR }).first('id')).id as number;
    await b.app.db('workspace_members').insert({ workspace_id: ws, user_id: collaboratorId, role: 'collaborator', created_at: Date.now() });
    const c = collaborator.page;
    await c.goto(`${b.app.url}/dashboard/workspaces/${ws}`);
    await c.getByRole('heading', { level: 1, name: 'My Workspace' }).waitFor();
    await c.getByText('Owner: owner@audit-page.example').waitFor();
    expect(await c.getByRole('link', { name: 'Audit log' }).count()).toBe(0);
    await c.goto(`${b.app.url}/dashboard/workspaces/${ws}/audit`);
    await c.getByText('There is no such API endpoint.').waitFor();
    expect(await c.getByTestId('audit-table').count()).toBe(0);
  });
});
