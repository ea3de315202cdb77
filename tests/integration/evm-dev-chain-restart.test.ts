// The embedded EVM development chain keeps its state across a gateway restart, as the sandbox Cardano
// chain does: accounts, a deployed contract and its storage, blocks and their hashes; the status page
// shows its latest block's age and names it a development chain.
import { describe, expect, it } from 'vitest';
import solc from 'solc';
import { createPublicClient, createWalletClient, http as viemHttp, type Abi } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { useTestApp } from '../helpers/use-test-app';
import { Client } from '../helpers/http-client';
import { signIn } from '../helpers/sign-in';
import { startTestGateway } from '../helpers/gateway';
import { loadConfig } from '../../server/config';
import { defaultProbes, statusReporter } from '../../server/features/status/status';
import { startHeartbeat } from '../../server/features/status/index';
import { createLogger } from '../../server/logger';
import { DEV_ACCOUNTS } from '../../server/sandbox/evm-chain';
import { rpcUrlWithKey } from '../../shared/milkomeda';

const app = useTestApp();

const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract Counter {
  uint256 public count;
  function increment() external { count += 1; }
}`;

function compile(): { abi: Abi; bytecode: `0x${string}` } {
  const input = { language: 'Solidity', sources: { 'Counter.sol': { content: SOURCE } }, settings: { evmVersion: 'paris', outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } } } };
  const c = JSON.parse(solc.compile(JSON.stringify(input))).contracts['Counter.sol'].Counter;
  return { abi: c.abi, bytecode: `0x${c.evm.bytecode.object}` };
}

describe('the EVM development chain across a restart', () => {
  it('keeps accounts, contracts and blocks, and shows its block age on the status page', { timeout: 120_000 }, async () => {
    const c = new Client(app.url);
    await signIn(c, app.mailer, 'evm-restart@example.com');
    const ws = (await c.get('/api/workspaces')).body.data[0].id;
    const key = (await c.post(`/api/workspaces/${ws}/projects`, { projectName: 'evm', networkId: 3 })).body.data.project.project_id as string;
    const { abi, bytecode } = compile();
    const account = privateKeyToAccount(DEV_ACCOUNTS[1]!.privateKey as `0x${string}`);

    const first = await startTestGateway(app);
    let address: `0x${string}`;
    let before: { number: bigint; hash: string; balance: bigint };
    try {
      await first.keys.catchUp();
      const transport = viemHttp(rpcUrlWithKey(first.url, key));
      const reader = createPublicClient({ transport });
      const wallet = createWalletClient({ transport, account, chain: { id: 2001, name: 'Milkomeda', nativeCurrency: { name: 'milkAda', symbol: 'mADA', decimals: 18 }, rpcUrls: { default: { http: [] } } } });
      const deployed = await reader.waitForTransactionReceipt({ hash: await wallet.deployContract({ abi, bytecode }), pollingInterval: 50 });
      address = deployed.contractAddress!;
      await reader.waitForTransactionReceipt({ hash: await wallet.writeContract({ address, abi, functionName: 'increment' }), pollingInterval: 50 });
      expect(await reader.readContract({ address, abi, functionName: 'count' })).toBe(1n);
      const block = await reader.getBlock();
      before = { number: block.number, hash: block.hash, balance: await reader.getBalance({ address: account.address }) };
    } finally {
      await first.close();
    }

    const second = await startTestGateway(app);
    try {
      expect(second.devChain?.replayed).toBeGreaterThanOrEqual(2);
      const transport = viemHttp(rpcUrlWithKey(second.url, key));
      const reader = createPublicClient({ transport });
      const block = await reader.getBlock({ blockNumber: before.number });
      expect(block.hash).toBe(before.hash);
      expect(await reader.getBlockNumber()).toBe(before.number);
      expect(await reader.getBalance({ address: account.address })).toBe(before.balance);
      expect(await reader.readContract({ address, abi, functionName: 'count' })).toBe(1n);
      // The chain goes on from there: the account's next nonce, a new block at the wall clock's time.
      const wallet = createWalletClient({ transport, account, chain: { id: 2001, name: 'Milkomeda', nativeCurrency: { name: 'milkAda', symbol: 'mADA', decimals: 18 }, rpcUrls: { default: { http: [] } } } });
      await reader.waitForTransactionReceipt({ hash: await wallet.writeContract({ address, abi, functionName: 'increment' }), pollingInterval: 50 });
      expect(await reader.readContract({ address, abi, functionName: 'count' })).toBe(2n);
      const latest = await reader.getBlock();
      expect(Math.abs(Number(latest.timestamp) - Date.now() / 1000)).toBeLessThan(30);

      const beat = startHeartbeat(app.db, 'gateway', createLogger('silent'));
      try {
        const config = loadConfig({ NODE_ENV: 'test', SESSION_SECRET: 'x'.repeat(40) });
        // The heartbeat's first write is under way: each look is a fresh check.
        const look = async () => (await statusReporter({ db: app.db, probes: defaultProbes(config, {}, app.db) })()).networks.find((n) => n.slug === 'milkomeda-mainnet')!;
        await expect.poll(async () => (await look()).state, { timeout: 10_000 }).toBe('operational');
        const milk = await look();
        expect(milk).toMatchObject({ backend: 'development', state: 'operational' });
        expect(milk.latestBlockAgeSeconds).toBeGreaterThanOrEqual(0);
        expect(milk.latestBlockAgeSeconds).toBeLessThan(30);
      } finally {
        await beat.stop();
      }
    } finally {
      await second.close();
    }
  });
});
