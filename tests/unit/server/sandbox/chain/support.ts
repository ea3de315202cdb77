// Shared test support for the sandbox chain: Blockfrost response schemas from @blockfrost/openapi
// compiled with Ajv, and a loopback HTTP server around the sandbox router.
import { createServer, type Server } from 'node:http';
import type { AddressInfo as NetAddressInfo } from 'node:net';
import express from 'express';
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { getSchema, getSchemaForEndpoint } from '@blockfrost/openapi';
import { createSandboxChain, sandboxRouter, type SandboxChain, type SandboxChainOptions } from '../../../../../server/sandbox/chain/index';
import { keptAlive } from '../../../../../server/http/keep-alive';

/** A fixed instant for tests: 2026-03-01T12:00:00Z. */
export const TEST_NOW = Date.UTC(2026, 2, 1, 12);

export interface TestChain {
  chain: SandboxChain;
  clock: { now: number };
}

export function testChain(options: Partial<SandboxChainOptions> = {}): TestChain {
  const clock = { now: options.now ? options.now() : TEST_NOW };
  const chain = createSandboxChain({ network: 'preprod', ...options, now: () => clock.now });
  return { chain, clock };
}

/** What a sweep worker of a chain of these parameters is started with (SweepClient's first argument), its chunks kept in memory. */
export const sweepWorkerData = (p: SandboxChain['params']) => ({ network: p.network, seed: p.seed, genesisTime: p.genesisTime, blockIntervalMs: p.blockIntervalMs, blocksPerEpoch: p.blocksPerEpoch, segmentLength: p.segmentLength, dir: null });

// ---- schemas ----

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Replaces every {$ref: '#/components/schemas/X'} with the component, recursively. */
function resolveRefs(node: Json, seen: string[] = []): Json {
  if (Array.isArray(node)) return node.map((n) => resolveRefs(n, seen));
  if (node === null || typeof node !== 'object') return node;
  const ref = node.$ref;
  if (typeof ref === 'string') {
    const name = ref.replace('#/components/schemas/', '');
    if (seen.includes(name)) throw new Error(`recursive schema ${name}`);
    return resolveRefs(getSchema(name) as Json, [...seen, name]);
  }
  const out: { [key: string]: Json } = {};
  for (const [k, v] of Object.entries(node)) out[k] = resolveRefs(v, seen);
  return out;
}

/**
 * Closes every object schema that lists its properties and says nothing about others, so a
 * response with a field the Blockfrost schema does not know fails too.
 */
function closeObjects(node: Json): Json {
  if (Array.isArray(node)) return node.map(closeObjects);
  if (node === null || typeof node !== 'object') return node;
  const out: { [key: string]: Json } = {};
  for (const [k, v] of Object.entries(node)) out[k] = k === 'properties' && v && typeof v === 'object' && !Array.isArray(v)
    ? Object.fromEntries(Object.entries(v).map(([p, s]) => [p, closeObjects(s)]))
    : closeObjects(v);
  if (out.properties && out.additionalProperties === undefined) out.additionalProperties = false;
  // OpenAPI 3.0: `nullable: true` admits null. Ajv applies that to `type` but not to an `enum`
  // (onchain_metadata_standard is such a case), so add null to the enum explicitly.
  if (out.nullable === true && Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  // `nullable` with no type at all (/scripts/{script_hash}/json's `json`) admits anything already.
  if (out.nullable === true && out.type === undefined && out.enum === undefined) delete out.nullable;
  return out;
}

const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);
// The spec uses this sentence as the "format" of asset units: make it a real check.
ajv.addFormat('Lovelace or concatenation of asset policy_id and hex-encoded asset_name', (unit: string) => unit === 'lovelace' || /^[0-9a-f]{56,120}$/.test(unit));

const compiled = new Map<string, ValidateFunction>();

export function responseSchema(endpoint: string, status = 200): Json {
  const schemas = getSchemaForEndpoint(endpoint) as { response: Record<string, Json> };
  const schema = schemas.response[String(status)];
  if (!schema) throw new Error(`no ${status} schema for ${endpoint}`);
  return resolveRefs(schema);
}

/** Asserts that a body matches the Blockfrost schema of the endpoint's response; throws the Ajv errors. */
export function assertSchema(endpoint: string, body: unknown, status = 200): void {
  const id = `${endpoint} ${status}`;
  let validate = compiled.get(id);
  if (!validate) {
    const schema = closeObjects(responseSchema(endpoint, status));
    if (JSON.stringify(schema).includes('$ref')) throw new Error(`unresolved $ref in ${id}`);
    validate = ajv.compile(schema as object);
    compiled.set(id, validate);
  }
  if (!validate(body)) {
    throw new Error(`${id} does not match the Blockfrost schema: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body).slice(0, 600)}`);
  }
}

// ---- HTTP ----

export interface TestServer {
  base: string;
  close(): Promise<void>;
  get(path: string): Promise<{ status: number; headers: Headers; body: any }>;
}

export async function serve(chain: SandboxChain): Promise<TestServer> {
  const app = express();
  app.use('/api/v0', sandboxRouter(chain, { version: '0.1.0' }));
  const server: Server = keptAlive(createServer(app));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as NetAddressInfo;
  const base = `http://127.0.0.1:${port}/api/v0`;
  return {
    base,
    close: () => new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve()))),
    async get(path: string) {
      const res = await fetch(base + path);
      const text = await res.text();
      return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
    },
  };
}
