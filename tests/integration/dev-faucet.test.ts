import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startTestApp } from '../helpers/test-app';
import { useTestApp } from '../helpers/use-test-app';
import { isLoopbackAddress } from '../../server/sandbox/faucet';

const app = useTestApp();

const post = (base: string, body: unknown) =>
  fetch(`${base}/dev/faucet`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

describe('the sandbox faucet on /dev', () => {
  it('lists the development wallets and pays test ada and test assets to an address', async () => {
    const wallets = await (await fetch(`${app.url}/dev/wallets`)).json();
    const preprod = wallets.data.find((n: { network: string }) => n.network === 'cardano-preprod');
    expect(preprod.wallets).toHaveLength(3);
    expect(preprod.wallets[0].mnemonic.split(' ')).toHaveLength(24);
    const res = await post(app.url, { network: 'cardano-preprod', address: preprod.wallets[1].address, lovelace: '25000000', assets: [{ name: 'CAIRN', quantity: 10 }] });
    expect(res.status).toBe(200);
    const { data } = await res.json();
    expect(data).toMatchObject({ txHash: expect.stringMatching(/^[0-9a-f]{64}$/), lovelace: '25000000', assets: [{ unit: `${preprod.faucet.policyId}434149524e`, quantity: '10' }] });
  });

  it('refuses bad requests with a clear error and changes nothing', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ network: 'cardano-preprod', address: 'addr1notanaddress', lovelace: '5000000' }, /address must be a Shelley address of preprod/],
      [{ network: 'cardano-preprod', address: 'x', lovelace: '100' }, /lovelace must be between/],
      [{ network: 'ipfs', address: 'x' }, /^network: /],
      [{ network: 'cardano-preprod', address: 'x', extra: 1 }, /^body: |extra/],
    ];
    for (const [body, message] of cases) {
      const res = await post(app.url, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      const json = await res.json();
      expect(json.error.code).toBe('invalid');
      expect(json.error.message).toMatch(message);
    }
  });

  it('answers loopback clients only', () => {
    for (const a of ['127.0.0.1', '::1', '::ffff:127.0.0.1', '127.8.9.10']) expect(isLoopbackAddress(a)).toBe(true);
    for (const a of ['10.0.0.1', '192.168.1.2', '::ffff:10.0.0.1', 'fe80::1', '']) expect(isLoopbackAddress(a)).toBe(false);
  });

  it('does not exist when NODE_ENV=production', async () => {
    // A minimal web build, so the production app answers unknown paths with its 404 rather than 'not built'.
    const webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-faucet-web-'));
    fs.writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><html lang="en"><div id="root"></div></html>');
    const prod = await startTestApp({ env: { NODE_ENV: 'production' }, database: app.database, webDir });
    try {
      expect((await post(prod.url, { network: 'cardano-preprod', address: 'x' })).status).toBe(404);
      expect((await fetch(`${prod.url}/dev/wallets`, { headers: { accept: 'application/json' } })).status).toBe(404);
    } finally {
      await prod.stop();
      fs.rmSync(webDir, { recursive: true, force: true });
    }
  });
});
