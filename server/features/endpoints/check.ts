import http from 'node:http';
import https from 'node:https';
import { checkLiteralHost, guardedLookup, type Allowlist } from '../webhooks/index';
import { endpointNetworks, type EndpointNetwork } from '../../../shared/endpoints';

// Checks that a submitted URL is a Blockfrost-compatible backend (GET /, /health, /blocks/latest)
// and detects its network (GET /genesis → network_magic). The calls go through the webhooks' SSRF
// guard: a submission cannot make Cairn probe private, loopback or reserved addresses unless the
// operator allow-lists them (WEBHOOK_ALLOWLIST).

export class EndpointCheckFailed extends Error {}

const MAX_BODY = 256 * 1024;

function getJson(url: string, allow: Allowlist, timeoutMs: number): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    try {
      checkLiteralHost(target.hostname, allow);
    } catch (err) {
      return reject(err);
    }
    const request = target.protocol === 'https:' ? https.request : http.request;
    const req = request(target, { method: 'GET', headers: { accept: 'application/json' }, timeout: timeoutMs, lookup: guardedLookup(target.hostname.replace(/^\[|\]$/g, ''), allow) }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size > MAX_BODY) req.destroy(new Error('the answer is too large'));
        else chunks.push(c);
      });
      res.on('end', () => {
        let body: unknown = null;
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          body = null;
        }
        resolve({ status: res.statusCode ?? 0, body });
      });
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end();
  });
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export async function checkBlockfrostBackend(baseUrl: string, allow: Allowlist, timeoutMs = 5000): Promise<{ network: EndpointNetwork; version: string | null }> {
  const get = async (path: string) => {
    try {
      return await getJson(baseUrl + path, allow, timeoutMs);
    } catch (err) {
      throw new EndpointCheckFailed(`GET ${path} failed: ${(err as Error).message}`);
    }
  };
  const root = await get('/');
  if (root.status !== 200 || !isObject(root.body)) throw new EndpointCheckFailed(`GET / answered ${root.status}, not a Blockfrost root document {url, version}.`);
  const health = await get('/health');
  if (health.status !== 200 || !isObject(health.body) || health.body.is_healthy !== true) throw new EndpointCheckFailed(`GET /health did not answer {"is_healthy": true} (status ${health.status}).`);
  const latest = await get('/blocks/latest');
  const block = latest.body;
  if (latest.status !== 200 || !isObject(block) || typeof block.hash !== 'string' || typeof block.slot !== 'number' || typeof block.time !== 'number') {
    throw new EndpointCheckFailed(`GET /blocks/latest did not answer a block (status ${latest.status}).`);
  }
  const genesis = await get('/genesis');
  const magic = isObject(genesis.body) ? genesis.body.network_magic : undefined;
  const network = (Object.keys(endpointNetworks) as EndpointNetwork[]).find((n) => endpointNetworks[n].networkMagic === magic);
  if (genesis.status !== 200 || !network) throw new EndpointCheckFailed(`The network could not be detected: GET /genesis answered network_magic ${JSON.stringify(magic ?? null)}.`);
  const version = isObject(root.body) && typeof root.body.version === 'string' ? root.body.version.slice(0, 100) : null;
  return { network, version };
}
