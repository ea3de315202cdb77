// The gateway's side of devnets, two backends the composition root hands over, so every request
// passes the same admission steps (key, allow-lists, limits, metering):
// - the cardano-devnet network's backend: a devnet key's Blockfrost call is answered by its own
//   project's chain (no other key reaches it: the key's project picks the chain);
// - the Cairn extension /cairn/v1/devnet…, the steering calls, for a devnet project's key.
import type http from 'node:http';
import type { ZodType } from 'zod';
import type { Logger } from '../../logger';
import type { CairnExtension, GatewayBackend } from '../../gateway/backend';
import { sendBlockfrostError, sendJson } from '../../gateway/respond';
import { AppError } from '../../errors';
import { devnetNetwork } from '../../../shared/networks';
import { advanceTimeSchema, blockIntervalSchema, createDevnetSchema, fundSchema, produceBlocksSchema, rollbackSchema, snapshotNameSchema, snapshotSchema } from '../../../shared/devnets';
import { sandboxBackend } from '../../gateway/backends';
import type { DevnetChain } from './engine';
import type { DevnetRegistry } from './registry';
import type { DevnetService, SteeringCall } from './service';

const INTERNAL = 'The devnet could not answer: try again.';
export const NOT_A_DEVNET_KEY = `The devnet calls take the key of a ${devnetNetwork.label} project (a key starting with '${devnetNetwork.prefix}'); this key's project has no devnet.`;
const BODY_LIMIT = 16 * 1024;

const failed = (res: http.ServerResponse, logger: Logger, err: unknown, what: string): void => {
  if (res.headersSent) return void res.destroy();
  if (err instanceof AppError && err.status < 500) return sendBlockfrostError(res, err.status, err.message);
  logger.error({ err: { message: (err as Error).message, stack: (err as Error).stack } }, `devnets: ${what} failed`);
  sendBlockfrostError(res, 500, INTERNAL);
};

/** cardano-devnet's backend: each key's own project's chain. */
export function devnetBackend(registry: DevnetRegistry, logger: Logger): GatewayBackend {
  // One Express app per chain held (a chain rebuilt from the database is a new object, with a new app).
  const served = new WeakMap<DevnetChain, GatewayBackend>();
  const backendOf = (chain: DevnetChain): GatewayBackend => {
    let b = served.get(chain);
    if (!b) served.set(chain, (b = sandboxBackend(chain.router)));
    return b;
  };
  return {
    kind: 'sandbox',
    admits: 'request',
    handle(req, res, path, call, steps) {
      registry.chainOf(call.project.projectId).then(
        ({ chain }) => backendOf(chain).handle(req, res, path, call, steps),
        (err: unknown) => failed(res, logger, err, 'loading a chain'),
      );
    },
  };
}

type Route = { method: string; pattern: RegExp; template: string };
const P = '/cairn/v1/devnet';
const NAME = '([^/]+)';
const ROUTES = {
  state: { method: 'GET', pattern: new RegExp(`^${P}$`), template: P },
  create: { method: 'POST', pattern: new RegExp(`^${P}$`), template: P },
  blocks: { method: 'POST', pattern: new RegExp(`^${P}/blocks$`), template: `${P}/blocks` },
  pause: { method: 'POST', pattern: new RegExp(`^${P}/pause$`), template: `${P}/pause` },
  resume: { method: 'POST', pattern: new RegExp(`^${P}/resume$`), template: `${P}/resume` },
  interval: { method: 'PUT', pattern: new RegExp(`^${P}/interval$`), template: `${P}/interval` },
  rollback: { method: 'POST', pattern: new RegExp(`^${P}/rollback$`), template: `${P}/rollback` },
  time: { method: 'POST', pattern: new RegExp(`^${P}/time$`), template: `${P}/time` },
  snapshot: { method: 'POST', pattern: new RegExp(`^${P}/snapshots$`), template: `${P}/snapshots` },
  restore: { method: 'POST', pattern: new RegExp(`^${P}/snapshots/${NAME}/restore$`), template: `${P}/snapshots/{name}/restore` },
  deleteSnapshot: { method: 'DELETE', pattern: new RegExp(`^${P}/snapshots/${NAME}$`), template: `${P}/snapshots/{name}` },
  reset: { method: 'POST', pattern: new RegExp(`^${P}/reset$`), template: `${P}/reset` },
  fund: { method: 'POST', pattern: new RegExp(`^${P}/fund$`), template: `${P}/fund` },
} satisfies Record<string, Route>;
type RouteName = keyof typeof ROUTES;

const match = (method: string, path: string): { name: RouteName; param: string | undefined } | null => {
  const bare = path.split('?', 1)[0]!;
  for (const [name, r] of Object.entries(ROUTES) as Array<[RouteName, Route]>) {
    if (r.method !== method) continue;
    const m = r.pattern.exec(bare);
    if (m) return { name, param: m[1] };
  }
  return null;
};

/** The body as JSON (none: {}); an AppError-like 400 when it is not JSON or too large. */
const readJson = (req: http.IncomingMessage): Promise<unknown> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > BODY_LIMIT) over = true;
      else chunks.push(c);
    });
    req.on('end', () => {
      if (over) return reject(new AppError(413, 'too_large', `A devnet call's body is at most ${BODY_LIMIT / 1024} KiB.`));
      const text = Buffer.concat(chunks).toString('utf8').trim();
      if (text === '') return resolve({});
      try {
        resolve(JSON.parse(text));
      } catch {
        reject(new AppError(400, 'invalid', 'The body must be JSON (Content-Type: application/json).'));
      }
    });
    req.on('error', reject);
  });

const parse = <T>(schema: ZodType<T>, body: unknown): T => {
  const r = schema.safeParse(body);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  const where = issue && issue.path.length > 0 && !issue.message.startsWith(String(issue.path[0])) ? `${issue.path.join('.')}: ` : '';
  throw new AppError(400, 'invalid', `${where}${issue?.message ?? 'The body is not valid.'}`);
};

const snapshotName = (param: string | undefined): string => {
  let name = param ?? '';
  try {
    name = decodeURIComponent(name);
  } catch {
    // answered below as a bad name
  }
  return parse(snapshotNameSchema, name);
};

/** The origin an audit entry records for a gateway call: the admitted client address and user agent. */
const originOf = (req: http.IncomingMessage, ip: string) => ({ ip: ip.slice(0, 64) || null, userAgent: req.headers['user-agent']?.slice(0, 512) ?? null });

/** /cairn/v1/devnet…: the steering calls of the calling key's devnet. */
export function devnetExtension(service: DevnetService, logger: Logger): CairnExtension {
  const run = async (name: RouteName, param: string | undefined, req: http.IncomingMessage, c: SteeringCall): Promise<[number, unknown]> => {
    const body = req.method === 'GET' || req.method === 'DELETE' ? {} : await readJson(req);
    switch (name) {
      case 'state':
        return [200, await service.state(c.projectId)];
      case 'create':
        return [201, await service.create(c, parse(createDevnetSchema, body).genesis)];
      case 'blocks':
        return [200, await service.produce(c, parse(produceBlocksSchema, body).count)];
      case 'pause':
        return [200, await service.pause(c)];
      case 'resume':
        return [200, await service.resume(c)];
      case 'interval':
        return [200, await service.setInterval(c, parse(blockIntervalSchema, body).ms)];
      case 'rollback': {
        const r = parse(rollbackSchema, body);
        return [200, await service.rollback(c, r.blocks, r.txs)];
      }
      case 'time':
        return [200, await service.advance(c, parse(advanceTimeSchema, body))];
      case 'snapshot':
        return [201, await service.snapshot(c, parse(snapshotSchema, body).name)];
      case 'restore':
        return [200, await service.restore(c, snapshotName(param))];
      case 'deleteSnapshot':
        return [200, await service.deleteSnapshot(c, snapshotName(param))];
      case 'reset':
        return [200, await service.reset(c)];
      case 'fund':
        return [200, await service.fund(c, parse(fundSchema, body))];
    }
  };
  return {
    kind: 'cairn',
    admits: 'request',
    template: (method, path) => {
      const m = match(method, path);
      return m ? ROUTES[m.name].template : null;
    },
    handle(req, res, path, call) {
      const m = match(req.method ?? 'GET', path);
      if (!m) return sendBlockfrostError(res, 404, 'Not Found');
      // Another network's key: a clear refusal, never a devnet (its own has none, and no other is its).
      if (call.project.network !== devnetNetwork.slug) return sendBlockfrostError(res, 403, NOT_A_DEVNET_KEY);
      const c: SteeringCall = { projectId: call.project.projectId, projectUuid: call.project.uuid, workspaceId: call.project.workspaceId, actor: { projectKey: call.project.uuid }, origin: originOf(req, call.ip) };
      run(m.name, m.param, req, c).then(
        ([status, body]) => sendJson(res, status, body),
        (err: unknown) => failed(res, logger, err, `the steering call ${m.name}`),
      );
    },
  };
}
