// GET /api/networks (which networks this server can serve) and the stats' count of private-network
// requests, on a real app and database.
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/use-test-app';
import { Client } from '../helpers/http-client';
import { signIn } from '../helpers/sign-in';
import type { NetworkOptionDto } from '../../shared/networks';
import { DAY_MS, dayStartOf } from '../../shared/time';

// IPFS gets a backend by configuration (nothing needs to answer for the list).
const app = useTestApp({ env: { UPSTREAM_IPFS_URL: 'http://127.0.0.1:9/api/v0' } });

describe('GET /api/networks', () => {
  it('lists the keyed networks, available only where this server has a backend and the network is not disabled', async () => {
    const res = await new Client(app.url).get<{ data: NetworkOptionDto[] }>('/api/networks');
    expect(res.status).toBe(200);
    const byLabel = Object.fromEntries(res.body.data.map((n) => [n.label, n.available]));
    expect(byLabel).toEqual({
      'Cardano mainnet': true, // sandbox chain
      'Cardano testnet': false, // disabled
      IPFS: true, // UPSTREAM_IPFS_URL
      'Milkomeda mainnet': true, // EVM development chain
      'Milkomeda testnet': false, // disabled
      'Cardano preview': true,
      'Cardano preprod': true,
      'Cardano SanchoNet': false, // disabled
      'Cardano devnet': true, // each project's own chain, in the gateway
    });
  });
});

describe('project stats', () => {
  it('count the requests from private, loopback and link-local addresses over the 30 days', async () => {
    const client = new Client(app.url);
    await signIn(client, app.mailer, 'private-ips@example.com');
    const workspaceId = (await client.get<{ data: Array<{ id: number }> }>('/api/workspaces')).body.data[0]!.id;
    const created = await client.post<{ data: { uuid: string } }>(`/api/workspaces/${workspaceId}/projects`, { projectName: 'Local', networkId: 0 });
    const uuid = created.body.data.uuid;
    const id = (await app.db('projects').where({ uuid }).first('id')).id as number;
    const today = dayStartOf(Date.now());
    const ip = (value: string, requests: number, day = today) => ({ project_id: id, dimension: 'ip', day_ms: day, value, requests });
    const rows = [
      ip('127.0.0.1', 5),
      ip('127.0.0.1', 2, today - DAY_MS),
      ip('::1', 1),
      ip('::ffff:10.1.2.3', 3),
      ip('FE80::1', 4),
      ip('192.168.0.9', 100, today - 40 * DAY_MS), // older than the 30 days
      ip('172.32.0.1', 7), // public
      ip('8.8.8.8', 9),
      { project_id: id, dimension: 'country', day_ms: today, value: 'unknown', requests: 22 },
      // The flush's per-day count of the private ones among them (tests/integration/metering.test.ts shows it counting).
      { project_id: id, dimension: 'private', day_ms: today, value: '*', requests: 5 + 1 + 3 + 4 },
      { project_id: id, dimension: 'private', day_ms: today - DAY_MS, value: '*', requests: 2 },
      { project_id: id, dimension: 'private', day_ms: today - 40 * DAY_MS, value: '*', requests: 100 },
    ];
    // Per day, and summed into the 30-day window the metering flush keeps (which the stats read
    // moves forward, dropping the day 40 days ago).
    await app.db('usage_dimensions').insert(rows);
    const window = new Map<string, { project_id: number; dimension: string; value: string; requests: number }>();
    for (const r of rows) {
      const k = `${r.dimension}|${r.value}`;
      const w = window.get(k) ?? { project_id: id, dimension: r.dimension, value: r.value, requests: 0 };
      w.requests += r.requests;
      window.set(k, w);
    }
    await app.db('usage_window').insert([...window.values()]);
    const stats = await client.get<{ data: { privateNetworkRequests: number } }>(`/api/workspaces/${workspaceId}/projects/${uuid}/stats`);
    expect(stats.status).toBe(200);
    expect(stats.body.data.privateNetworkRequests).toBe(15);
  });
});
