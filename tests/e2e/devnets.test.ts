import CSL from '@emurgo/cardano-serialization-lib-nodejs';
import { describe, expect, it } from 'vitest';
import { DEVNET_MESSAGES, withDevnetFieldLabels } from '../../shared/devnets';
import { browserAvailable } from '../helpers/browser';
import { useBrowserApp } from '../helpers/browser-app';

// SCREENSHOT_DIR=<folder>: the card is also saved at 375 and 1280 px there.
const shots = process.env.SCREENSHOT_DIR;

describe.runIf(browserAvailable())("a devnet project's Devnet card, in Chromium", () => {
  const suite = useBrowserApp();

  it("shows the chain and steers it: pause, produce, snapshot; a bad count, and the API's refusal of a rollback, are shown on the field, by its label", async () => {
    const { page } = await suite.signIn('devnet-card@example.com', '/dashboard');
    const workspaceId = ((await (await page.request.get(`${suite.app.url}/api/workspaces`)).json()).data as Array<{ id: number }>)[0]!.id;
    const csrf = (await (await page.request.get(`${suite.app.url}/auth/csrf`)).json()).data.csrfToken as string;
    const created = await page.request.post(`${suite.app.url}/api/workspaces/${workspaceId}/projects`, { headers: { 'X-CSRF-Token': csrf }, data: { projectName: 'Local chain', networkId: 8 } });
    expect(created.status()).toBe(201);
    const { uuid } = (await created.json()).data as { uuid: string };
    const tipNow = async () => ((await (await page.request.get(`${suite.app.url}/api/projects/${uuid}/devnet`)).json()).data as { tip: { height: number } }).tip.height;

    await page.goto(`${suite.app.url}/dashboard/project/${uuid}`);
    await page.getByRole('heading', { name: 'Devnet' }).waitFor();
    await page.getByRole('button', { name: 'Pause' }).click();
    await page.getByRole('button', { name: 'Resume' }).waitFor();
    const before = await tipNow();

    const count = page.getByRole('textbox', { name: 'Blocks to produce now' });
    await count.fill('5');
    await page.getByRole('button', { name: 'Produce' }).click();
    await page.getByText('5 blocks produced.').waitFor();
    expect(await tipNow()).toBe(before + 5);
    await expect.poll(async () => (await page.getByTestId('devnet-tip').textContent())?.replace(/,/g, '')).toBe(String(before + 5));

    // Refused on the field, in the card's words: its label where the API's message names the field.
    await count.fill('0');
    await page.getByRole('button', { name: 'Produce' }).click();
    await page.getByText(withDevnetFieldLabels(DEVNET_MESSAGES.count)).waitFor();
    expect(await page.getByText(DEVNET_MESSAGES.count).count()).toBe(0);
    expect(await tipNow()).toBe(before + 5);

    // The API's own refusal (more blocks than the chain has, which the form cannot know) is shown on the field too, by its label.
    await page.getByRole('textbox', { name: 'Blocks to roll back' }).fill('2000');
    await page.getByRole('button', { name: 'Roll back' }).click();
    const refused = page.getByRole('alert').filter({ hasText: /^Blocks to roll back must be at most \d+: the chain has that many blocks after its genesis\.$/ });
    await refused.waitFor();
    expect(await page.getByText(/^blocks must be at most/).count()).toBe(0);
    expect(await page.getByRole('textbox', { name: 'Blocks to roll back' }).getAttribute('aria-invalid')).toBe('true');
    expect(await tipNow()).toBe(before + 5);

    await page.getByRole('textbox', { name: 'Snapshot name' }).fill('five-more');
    await page.getByRole('button', { name: 'Take snapshot' }).click();
    await page.getByTestId('devnet-snapshots').getByText('five-more').waitFor();

    // A new chain from a genesis of its own; a slot length that is not a multiple of 100 is refused on the field.
    await page.getByRole('textbox', { name: 'Slot length (ms)' }).fill('150');
    await page.getByRole('button', { name: 'Start new chain' }).click();
    expect(await page.getByRole('textbox', { name: 'Slot length (ms)' }).getAttribute('aria-invalid')).toBe('true');
    await page.getByRole('textbox', { name: 'Slot length (ms)' }).fill('200');
    await page.getByRole('textbox', { name: 'Epoch length (slots)' }).fill('100');
    await page.getByRole('textbox', { name: 'Genesis block interval (ms)' }).fill('200');
    await page.getByRole('button', { name: 'Start new chain' }).click();
    await page.getByText('A new chain started from this genesis', { exact: false }).waitFor();
    const genesis = (await (await page.request.get(`${suite.app.url}/api/projects/${uuid}/devnet`)).json()).data as { slot_length_ms: number; epoch_length: number; block_interval_ms: number };
    expect(genesis).toMatchObject({ slot_length_ms: 200, epoch_length: 100, block_interval_ms: 200 });

    // Ada and a token minted under the devnet's policy, from the fund form.
    const key = CSL.PrivateKey.generate_ed25519();
    const address = CSL.EnterpriseAddress.new(0, CSL.Credential.from_keyhash(key.to_public().hash())).to_address().to_bech32(undefined);
    await page.getByRole('textbox', { name: 'Address to fund' }).fill(address);
    await page.getByRole('textbox', { name: 'Tokens' }).fill('5');
    await page.getByRole('textbox', { name: 'Token name (hex)' }).fill('zz');
    await page.getByRole('button', { name: 'Fund' }).click();
    await page.getByRole('alert').filter({ hasText: 'An asset name is 0 to 32 bytes in hexadecimal.' }).waitFor();
    await page.getByRole('textbox', { name: 'Token name (hex)' }).fill('74657374');
    const funding = page.waitForRequest((r) => r.url().endsWith(`/api/projects/${uuid}/devnet/fund`));
    await page.getByRole('button', { name: 'Fund' }).click();
    expect((await funding).postDataJSON()).toEqual({ address, lovelace: '10000000', assets: [{ assetName: '74657374', quantity: '5' }] });
    await page.getByText('Paid, with the tokens minted under the devnet policy, in the next block.').waitFor();

    // The rest of a genesis as JSON: checked by the API's schema before the call, its problems shown under it with their path.
    const more = page.getByRole('textbox', { name: 'More of the genesis (JSON)' });
    await more.fill('{"initialFunds": [');
    await page.getByRole('button', { name: 'Start new chain' }).click();
    await page.getByText(/^More of the genesis must be a JSON object/).waitFor();
    await more.fill(JSON.stringify({ initialFunds: [{ address: 'addr_nope', lovelace: '5000000000' }] }));
    await page.getByRole('button', { name: 'Start new chain' }).click();
    await page.getByText('initialFunds.0.address: a Shelley testnet address (addr_test…)').waitFor();
    await more.fill(JSON.stringify({ initialFunds: [{ address, lovelace: '5000000000' }], initialPools: [{ pledge: '500000000', cost: '170000000', margin: 0.01, ticker: 'CARD' }] }));
    const creating = page.waitForResponse((r) => r.url().endsWith(`/api/projects/${uuid}/devnet`) && r.request().method() === 'POST');
    await page.getByRole('button', { name: 'Start new chain' }).click();
    const created2 = await creating;
    expect(created2.request().postDataJSON().genesis).toMatchObject({ slotLengthMs: 200, epochLength: 100, initialFunds: [{ address, lovelace: '5000000000' }], initialPools: [{ ticker: 'CARD' }] });
    expect(created2.ok(), await created2.text()).toBe(true);

    if (shots) {
      for (const width of [1280, 375]) {
        await page.setViewportSize({ width, height: 900 });
        await page.getByRole('heading', { name: 'Devnet' }).scrollIntoViewIfNeeded();
        await page.locator('section[aria-labelledby="devnet-title"]').screenshot({ path: `${shots}/devnet-card-${width}.png` });
      }
    }
  });
});
