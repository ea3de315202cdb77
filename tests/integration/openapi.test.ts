import { describe, expect, it } from 'vitest';
import type { Router } from 'express';
import { useTestApp } from '../helpers/use-test-app';
import { Client } from '../helpers/http-client';
import { apiRouter, tenancy } from '../../server/api-router';
import { openApiPath } from '../../server/features/site/openapi-routes';
import { devnetService } from '../../server/features/devnets/index';
import { devnetRegistry } from '../../server/sandbox/devnet-engine';
import { createLogger } from '../../server/logger';
import { devMailbox } from '../../server/mail/mailer';
import { LocalBillingProvider } from '../../server/features/billing/local';
import { ppuSettings } from '../../server/features/ppu/ppu';

const app = useTestApp();

interface Layer {
  route?: { path: string; methods: Record<string, boolean> };
}

/** The routes the dashboard API router really has, read from Express itself. */
function existingRoutes(): string[] {
  const logger = createLogger('silent');
  const router = apiRouter(
    { db: app.db, config: app.config, logger, mailer: devMailbox(logger), tenancy },
    { webDir: '/nonexistent', latestBlock: async () => ({ block: {} as never, source: 'test' }), sandboxed: new Set(), webhookSources: new Map(), status: async () => { throw new Error('unused'); }, served: () => true, billing: new LocalBillingProvider(app.db), ppu: { settings: ppuSettings(app.config), tip: async () => null, canSimulate: false }, devnets: devnetService(app.db, devnetRegistry(app.config, app.db, logger, 'test')) },
  ) as Router & { stack: Layer[] };
  const out: string[] = [];
  for (const layer of router.stack) {
    if (!layer.route) continue;
    for (const [method, on] of Object.entries(layer.route.methods)) if (on && method !== '_all') out.push(`${method} ${openApiPath('/api' + layer.route.path)}`);
  }
  return out.sort();
}

describe('GET /api/openapi.json', () => {
  it('is an OpenAPI 3.1 document anyone can read, with this server as its server', async () => {
    const res = await new Client(app.url).get('/api/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    expect(res.body.servers).toEqual([{ url: app.url, description: 'This Cairn server' }]);
    expect(res.body.components.securitySchemes.csrf).toMatchObject({ in: 'header', name: 'X-CSRF-Token' });
  });

  it('lists exactly the routes that exist: a route missing from either side fails here', async () => {
    const res = await new Client(app.url).get('/api/openapi.json');
    const documented: string[] = [];
    for (const [p, ops] of Object.entries(res.body.paths as Record<string, Record<string, unknown>>)) for (const m of Object.keys(ops)) documented.push(`${m} ${p}`);
    const existing = existingRoutes();
    expect(existing.length).toBeGreaterThan(30);
    expect(documented.sort()).toEqual(existing);
  });

  it('describes request bodies from the shared zod schemas, with their limits', async () => {
    const res = await new Client(app.url).get('/api/openapi.json');
    const create = res.body.paths['/api/workspaces/{workspaceId}/projects']?.post ?? res.body.paths['/api/workspaces/{id}/projects']?.post;
    expect(create).toBeDefined();
    const schema = create.requestBody.content['application/json'].schema;
    expect(Object.keys(schema.properties)).toEqual(expect.arrayContaining(['projectName', 'networkId']));
    expect(create.security).toEqual([{ session: [], csrf: [] }]);
    expect(Object.keys(create.responses)).toEqual(expect.arrayContaining(['400', '401', '403', '404']));
  });
});
