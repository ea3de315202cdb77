// The dashboard API's OpenAPI document, generated from the routes as they are declared (path,
// permission and the zod schemas of shared/), never written by hand: a route added with route()
// appears here by itself, and tests/integration/openapi.test.ts fails when the two disagree.
import type { Router } from 'express';
import { z } from 'zod';
import { declaredRoutes, route, type Permission, type RouteDeclaration, type RouteDeps } from '../../http/route';

type JsonSchema = Record<string, unknown>;

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description: string };
  servers: Array<{ url: string; description: string }>;
  paths: Record<string, Record<string, unknown>>;
  components: Record<string, unknown>;
}

/** Express's `/workspaces/:id` is OpenAPI's `/workspaces/{id}`. */
export const openApiPath = (expressPath: string): string => expressPath.replace(/:(\w+)/g, '{$1}');

const toSchema = (schema: z.ZodType, io: 'input' | 'output' = 'input'): JsonSchema => {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
};

const errorBody = { $ref: '#/components/schemas/Error' };
const errorResponse = (description: string) => ({ description, content: { 'application/json': { schema: errorBody } } });

function describePermission(permission: Permission): string {
  if (permission === 'public') return 'Open to everyone.';
  if (permission === 'signedIn') return 'Any signed-in user.';
  if (permission === 'operator') return 'Operators only (OPERATOR_EMAILS); anyone else gets 404.';
  if ('workspace' in permission) return `Members of the workspace whose role may \`${permission.workspace}\`; non-members get 404.`;
  if ('project' in permission) return `Members of the project's workspace whose role may \`${permission.project}\`; anyone else gets 404.`;
  if ('webhook' in permission) return `Members of the webhook's workspace whose role may \`${permission.webhook}\`; non-members get 404.`;
  return 'Restricted.';
}

function parametersOf(decl: RouteDeclaration): unknown[] {
  const out: unknown[] = [];
  const pathNames = [...decl.path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
  const paramProps = decl.params ? ((toSchema(decl.params).properties as Record<string, JsonSchema> | undefined) ?? {}) : {};
  for (const name of pathNames) out.push({ name, in: 'path', required: true, schema: paramProps[name] ?? { type: 'string' } });
  if (decl.query) {
    const q = toSchema(decl.query);
    const required = new Set((q.required as string[] | undefined) ?? []);
    for (const [name, schema] of Object.entries((q.properties as Record<string, JsonSchema> | undefined) ?? {})) {
      out.push({ name, in: 'query', required: required.has(name), schema });
    }
  }
  return out;
}

/** `{data}`, or for a paged list `{data: [...], next}` (shared/pagination.ts). */
function envelopeOf(decl: RouteDeclaration): JsonSchema {
  const data = decl.response ? toSchema(decl.response, 'output') : {};
  if (!decl.paged) return { type: 'object', properties: { data }, required: ['data'] };
  return {
    type: 'object',
    properties: {
      data: decl.response ? data : { type: 'array', items: {} },
      next: { type: ['string', 'null'], description: 'The cursor of the following page (pass it as `cursor`); null on the last page.' },
    },
    required: ['data', 'next'],
  };
}

function operationOf(decl: RouteDeclaration, prefix: string): Record<string, unknown> {
  const status = String(decl.status ?? 200);
  const isSignedIn = decl.permission !== 'public';
  const mutates = decl.csrf;
  const op: Record<string, unknown> = {
    operationId: `${decl.method}${openApiPath(prefix + decl.path).replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
    summary: decl.summary ?? `${decl.method.toUpperCase()} ${openApiPath(prefix + decl.path)}`,
    description: describePermission(decl.permission) + (decl.raw ? ` Answers ${decl.raw}.` : ''),
    tags: [decl.path.split('/')[1] || 'api'],
    parameters: parametersOf(decl),
    responses: {
      [status]: decl.raw
        ? { description: decl.raw }
        : {
            description: decl.paged ? 'Success: one page of the list in `data`, the next page\'s cursor in `next`.' : 'Success: the result in `data`.',
            content: { 'application/json': { schema: envelopeOf(decl) } },
          },
      '400': errorResponse('Invalid input: the message says what is wrong.'),
      ...(isSignedIn ? { '401': errorResponse('Not signed in.') } : {}),
      ...(isSignedIn || mutates ? { '403': errorResponse(mutates ? 'No permission, or a missing or wrong CSRF token.' : 'No permission.') } : {}),
      ...(typeof decl.permission === 'object' || decl.path.includes(':') ? { '404': errorResponse('Not found, or not yours.') } : {}),
    },
  };
  if (decl.body) op.requestBody = { required: true, content: { 'application/json': { schema: toSchema(decl.body) } } };
  const security: Array<Record<string, string[]>> = [];
  if (isSignedIn) security.push(mutates ? { session: [], csrf: [] } : { session: [] });
  op.security = security.length ? security : [{}];
  return op;
}

/** Builds the document from a router's declared routes, mounted at `prefix` (e.g. '/api'). */
export function buildOpenApi(routes: readonly RouteDeclaration[], opts: { prefix: string; serverUrl: string; version: string }): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  for (const decl of routes) {
    const p = openApiPath(opts.prefix + decl.path);
    (paths[p] ??= {})[decl.method] = operationOf(decl, opts.prefix);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Cairn dashboard API',
      version: opts.version,
      description:
        'The API the Cairn dashboard uses: workspaces, members, projects, webhooks, usage and settings. ' +
        'It is authenticated by the session cookie of a signed-in browser; every request that changes state also carries ' +
        'the session\'s token from `GET /auth/csrf` in the `X-CSRF-Token` header. Answers are `{"data": …}`; errors are ' +
        '`{"error": {"code", "message"}}`.',
    },
    servers: [{ url: opts.serverUrl, description: 'This Cairn server' }],
    paths,
    components: {
      schemas: {
        Error: {
          type: 'object',
          properties: { error: { type: 'object', properties: { code: { type: 'string' }, message: { type: 'string' } }, required: ['code', 'message'] } },
          required: ['error'],
        },
      },
      securitySchemes: {
        session: { type: 'apiKey', in: 'cookie', name: 'cairn.sid', description: 'The session cookie set by signing in.' },
        csrf: { type: 'apiKey', in: 'header', name: 'X-CSRF-Token', description: 'The token from GET /auth/csrf.' },
      },
    },
  };
}

/** GET /api/openapi.json: the document of every route declared on this router, itself included. */
export function registerOpenApiRoute(router: Router, deps: RouteDeps, version: string): void {
  let cached: OpenApiDocument | undefined;
  route(router, deps, {
    method: 'get',
    path: '/openapi.json',
    permission: 'public',
    summary: 'This document: the dashboard API in OpenAPI 3.1',
    handler: ({ res }) => {
      cached ??= buildOpenApi(declaredRoutes(router), { prefix: '/api', serverUrl: deps.config.publicUrl, version });
      res.json(cached);
    },
  });
}
