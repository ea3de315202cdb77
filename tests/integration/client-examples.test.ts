// The project page's examples, run exactly as printed (shared/client-examples.ts is the text the page
// shows) against a running Cairn: curl through bash, each JavaScript snippet as an ES module in its
// own Node process with this repository's packages (blockfrost-js, Mesh, Lucid, ethers, viem).
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, useTestGateway } from '../helpers/use-test-app';
import { Client } from '../helpers/http-client';
import { signIn } from '../helpers/sign-in';
import { setSubscription } from '../../server/features/workspaces/subscriptions';
import { clientExamples, type ClientExample } from '../../shared/client-examples';

const app = useTestApp();
const gw = useTestGateway(app);
const keys: Record<'cardano' | 'ipfs' | 'milkomeda' | 'devnet', string> = { cardano: '', ipfs: '', milkomeda: '', devnet: '' };
let dir = '';

beforeAll(async () => {
  const c = new Client(app.url);
  await signIn(c, app.mailer, 'examples@example.com');
  await setSubscription(app.db, (await c.get('/api/me')).body.data.id, 'ENTERPRISE', 'active');
  const ws = (await c.get('/api/workspaces')).body.data[0].id;
  for (const [name, networkId] of [['cardano', 0], ['ipfs', 2], ['milkomeda', 3], ['devnet', 8]] as const) {
    const res = await c.post(`/api/workspaces/${ws}/projects`, { projectName: name, networkId });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    keys[name] = res.body.data.project.project_id;
  }
  // A customer's project folder: the snippets import the packages this repository installs.
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-examples-'));
  fs.symlinkSync(path.resolve('node_modules'), path.join(dir, 'node_modules'), 'dir');
});
afterAll(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** Runs one snippet as printed; answers its output, or fails with what it printed. */
function run(example: ClientExample): Promise<string> {
  const file = path.join(dir, `${example.value}.mjs`);
  if (example.language === 'javascript') fs.writeFileSync(file, example.code);
  const [cmd, args] = example.language === 'shell' ? ['bash', ['-c', example.code]] : [process.execPath, [file]];
  return new Promise((resolve, reject) => {
    execFile(cmd, args, { cwd: dir, timeout: 90_000, maxBuffer: 4 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${example.tab} failed: ${err.message}\n${stderr}\n${stdout}`));
      else resolve(stdout);
    });
  });
}

const byValue = (examples: ClientExample[]) => Object.fromEntries(examples.map((e) => [e.value, e]));

describe('the project page examples, as printed', () => {
  it('Cardano: curl, blockfrost-js, Mesh with its evaluator (key in the URL), Lucid Evolution and Blaze', { timeout: 300_000 }, async () => {
    await gw.keys.catchUp();
    const examples = clientExamples(gw.url, keys.cardano);
    expect(examples.map((e) => e.value)).toEqual(['curl', 'blockfrost-js', 'mesh', 'lucid', 'blaze']);
    const ex = byValue(examples);
    expect(JSON.parse(await run(ex.curl!))).toMatchObject({ hash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(await run(ex['blockfrost-js']!)).toMatch(/hash: '[0-9a-f]{64}'/);
    expect(ex.mesh!.code).toContain(`${gw.url}/${keys.cardano}/api/v0`);
    expect(ex.mesh!.code).toContain('evaluator: provider');
    expect(await run(ex.mesh!)).toMatch(/hash: '[0-9a-f]{64}'/);
    expect(ex.lucid!.code).toContain("from '@lucid-evolution/lucid'");
    // Lucid Evolution's own mainnet slot configuration gives the gateway's current slot.
    const lucid = await run(ex.lucid!);
    expect(lucid).toMatch(/minFeeA: 44/);
    const slot = Number(/slot: (\d+)/.exec(lucid)![1]);
    const tip = (await (await fetch(`${gw.url}/api/v0/blocks/latest`, { headers: { project_id: keys.cardano } })).json()) as { slot: number };
    expect(Math.abs(slot - tip.slot)).toBeLessThan(60);
    expect(await run(ex.blaze!)).toMatch(/minFeeCoefficient: 44/);
  });

  it("Cardano devnet: curl, blockfrost-js, Mesh, and Lucid Evolution on the devnet's own slot configuration", { timeout: 300_000 }, async () => {
    await gw.keys.catchUp();
    const examples = clientExamples(gw.url, keys.devnet);
    expect(examples.map((e) => e.value)).toEqual(['curl', 'blockfrost-js', 'mesh', 'lucid']);
    const ex = byValue(examples);
    expect(JSON.parse(await run(ex.curl!))).toMatchObject({ hash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(await run(ex['blockfrost-js']!)).toMatch(/hash: '[0-9a-f]{64}'/);
    const lucid = await run(ex.lucid!);
    const slot = Number(/slot: (\d+)/.exec(lucid)![1]);
    const tip = (await (await fetch(`${gw.url}/api/v0/blocks/latest`, { headers: { project_id: keys.devnet } })).json()) as { slot: number };
    expect(Math.abs(slot - tip.slot)).toBeLessThan(30);
  });

  it('IPFS: curl and blockfrost-js (add, pin, list)', { timeout: 120_000 }, async () => {
    await gw.keys.catchUp();
    const ex = byValue(clientExamples(gw.url, keys.ipfs));
    expect(JSON.parse(await run(ex.curl!))).toEqual([]);
    expect(await run(ex['ipfs-sdk']!)).toMatch(/ipfs_hash: '\w+'/);
    expect(JSON.parse(await run(ex.curl!))).toHaveLength(1);
  });

  it('Milkomeda: curl, ethers and viem (key in the URL)', { timeout: 120_000 }, async () => {
    await gw.keys.catchUp();
    const ex = byValue(clientExamples(gw.url, keys.milkomeda));
    expect(JSON.parse(await run(ex.curl!))).toMatchObject({ jsonrpc: '2.0', id: 1, result: expect.stringMatching(/^0x[0-9a-f]+$/) });
    expect((await run(ex.ethers!)).trim()).toMatch(/^\d+$/);
    expect(ex.viem!.code).toContain(`${gw.url}/${keys.milkomeda}/milkomeda-mainnet/api/v0/`);
    expect((await run(ex.viem!)).trim()).toMatch(/^\d+n$/);
  });
});
