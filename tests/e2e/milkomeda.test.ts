// The Milkomeda project page in Chromium: RPC URL with the key, curl/ethers/viem examples, and the
// 'Add to MetaMask' button against an injected EIP-1193 provider (exact wallet_addEthereumChain
// parameters, the refusal message) and without one (disabled, with the spec's tooltip).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { browserAvailable, launchBrowser } from '../helpers/browser';
import { signInInBrowser, type SignedInBrowser } from '../helpers/browser-sign-in';
import { startTestApp, type TestApp } from '../helpers/test-app';
import type { TestDatabase } from '../helpers/db-template';
import { messages } from '../../shared/messages';
import { DEV_ACCOUNTS } from '../../server/sandbox/evm-accounts';

/** A stand-in wallet as MetaMask injects it: records every request, answers or refuses as told. */
const injectWallet = (mode: 'accept' | 'refuse') => `
  window.__walletCalls = [];
  window.ethereum = {
    isMetaMask: true,
    request: async (args) => {
      window.__walletCalls.push(JSON.parse(JSON.stringify(args)));
      if (${JSON.stringify(mode)} === 'refuse') throw Object.assign(new Error('User rejected the request.'), { code: 4001 });
      return null;
    },
  };`;

describe.runIf(browserAvailable())('Milkomeda project page, in Chromium', () => {
  let browser: Browser;
  let app: TestApp & { database: TestDatabase };
  let session: SignedInBrowser;
  let uuid: string;
  let key: string;
  const shots = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-milkomeda-'));

  beforeAll(async () => {
    app = await startTestApp();
    browser = await launchBrowser();
    session = await signInInBrowser(browser, app, 'milk-page@example.com', '/dashboard');
    const { page } = session;
    const workspaces = (await (await page.request.get(`${app.url}/api/workspaces`)).json()).data as Array<{ id: number }>;
    const csrf = (await (await page.request.get(`${app.url}/auth/csrf`)).json()).data.csrfToken as string;
    const created = await page.request.post(`${app.url}/api/workspaces/${workspaces[0]!.id}/projects`, {
      headers: { 'X-CSRF-Token': csrf },
      data: { projectName: 'EVM dapp', networkId: 3 },
    });
    expect(created.status()).toBe(201);
    ({ uuid, project: { project_id: key } } = (await created.json()).data as { uuid: string; project: { project_id: string } });
  });
  afterAll(async () => {
    await session?.context.close();
    await browser?.close();
    await app?.stop();
    await app?.database.drop();
  });

  async function open(page: Page) {
    await page.goto(`${app.url}/dashboard/project/${uuid}`);
    await page.getByRole('heading', { level: 2, name: 'Milkomeda C1 Mainnet RPC' }).waitFor();
  }

  it('shows the RPC URL with the key, the three examples and the development chain accounts; no wallet: disabled with the tooltip', async () => {
    const page = await session.context.newPage();
    await open(page);
    const gateway = app.config.site.gatewayUrl;
    const rpc = `${gateway}/${key}/milkomeda-mainnet/api/v0/`;
    expect(await page.getByTestId('milkomeda-rpc-url').textContent()).toBe(rpc);
    expect(await page.getByTestId('evm-example-curl').textContent()).toContain(`project_id: ${key}`);
    await page.getByRole('tab', { name: 'ethers', exact: true }).click();
    expect(await page.getByTestId('evm-example-ethers').textContent()).toContain(`'${key}'`);
    // viem is given only the URL, with the key as its first path segment.
    await page.getByRole('tab', { name: 'viem', exact: true }).click();
    expect(await page.getByTestId('evm-example-viem').textContent()).toContain(`'${rpc}'`);
    await page.getByText(DEV_ACCOUNTS[0]!.address).waitFor();
    await page.getByText('Sandbox data').first().waitFor();

    const button = page.getByRole('button', { name: 'Add to MetaMask' });
    expect(await button.isDisabled()).toBe(true);
    await page.getByLabel(`Add to MetaMask: ${messages.metamask.notInstalled}`).hover();
    await page.getByRole('tooltip', { name: messages.metamask.notInstalled }).waitFor();
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: path.join(shots, `milkomeda-${width}.png`), fullPage: true });
    }
    console.log(`Milkomeda page screenshots in ${shots}`);
    await page.close();
  });

  it('calls wallet_addEthereumChain with the exact chain parameters, and shows the message when the wallet refuses', async () => {
    const page = await session.context.newPage();
    await page.addInitScript(injectWallet('accept'));
    await open(page);
    await page.getByRole('button', { name: 'Add to MetaMask' }).click();
    await page.getByText('Milkomeda C1 Mainnet is now a network in your wallet.').waitFor();
    const calls = await page.evaluate(() => (window as unknown as { __walletCalls: unknown[] }).__walletCalls);
    const gateway = app.config.site.gatewayUrl;
    expect(calls).toEqual([
      {
        method: 'wallet_addEthereumChain',
        params: [
          {
            chainId: '0x7d1',
            chainName: 'Milkomeda C1 Mainnet',
            nativeCurrency: { name: 'milkAda', symbol: 'mADA', decimals: 18 },
            rpcUrls: [`${gateway}/${key}/milkomeda-mainnet/api/v0/`],
            blockExplorerUrls: ['https://explorer-mainnet-cardano-evm.c1.milkomeda.com'],
          },
        ],
      },
    ]);
    await page.close();

    const refusing = await session.context.newPage();
    await refusing.addInitScript(injectWallet('refuse'));
    await open(refusing);
    await refusing.getByRole('button', { name: 'Add to MetaMask' }).click();
    await refusing.getByText(messages.metamask.addError).waitFor();
    expect(await refusing.evaluate(() => (window as unknown as { __walletCalls: unknown[] }).__walletCalls.length)).toBe(1);
    await refusing.close();
  });
});
