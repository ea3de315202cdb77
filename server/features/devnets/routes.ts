import type { Router } from 'express';
import { z } from 'zod';
import { route, type RouteDeps } from '../../http/route';
import { originOf } from '../audit/index';
import { advanceTimeSchema, blockIntervalSchema, createDevnetSchema, fundSchema, produceBlocksSchema, rollbackSchema, snapshotNameSchema, snapshotSchema } from '../../../shared/devnets';
import type { ProjectRef } from '../../../shared/workspaces';
import type { DevnetService, SteeringCall } from './service';

/**
 * The project page's Devnet card: the state for every member, the steering calls for roles that may
 * update projects; the same calls as /cairn/v1/devnet on the gateway, recorded under the member's name.
 */
export function registerDevnetRoutes(router: Router, deps: RouteDeps, service: DevnetService): void {
  const base = '/projects/:projectId/devnet';
  const call = async (req: Parameters<typeof originOf>[0], user: { id: number; email: string }, project: ProjectRef): Promise<SteeringCall> => {
    await service.assertDevnetProject(project.id);
    return { projectId: project.id, projectUuid: project.uuid, workspaceId: project.workspaceId, actor: { userId: user.id, email: user.email }, origin: originOf(req) };
  };
  const update = { project: 'projects.update' } as const;
  const nameParams = z.object({ projectId: z.string(), name: snapshotNameSchema });

  route(router, deps, {
    method: 'get',
    path: base,
    permission: { project: 'projects.view' },
    summary: "A devnet project's chain: tip, slot, epoch, paused or running, block interval, snapshots.",
    handler: async ({ project }) => {
      await service.assertDevnetProject(project.id);
      return service.state(project.id);
    },
  });
  route(router, deps, {
    method: 'post',
    path: base,
    permission: update,
    body: createDevnetSchema,
    status: 201,
    summary: 'Starts the devnet again from a genesis of your own (slot length, epoch length, block interval, initial funds); its transactions are forgotten.',
    handler: async ({ req, user, project, body }) => service.create(await call(req, user, project), body.genesis),
  });
  route(router, deps, {
    method: 'post',
    path: `${base}/blocks`,
    permission: update,
    body: produceBlocksSchema,
    summary: 'Produces this many blocks now.',
    handler: async ({ req, user, project, body }) => service.produce(await call(req, user, project), body.count),
  });
  route(router, deps, {
    method: 'post',
    path: `${base}/pause`,
    permission: update,
    summary: 'Stops the clock: no block comes until resume (produce still makes blocks).',
    handler: async ({ req, user, project }) => service.pause(await call(req, user, project)),
  });
  route(router, deps, {
    method: 'post',
    path: `${base}/resume`,
    permission: update,
    summary: 'Lets the clock run again from the tip.',
    handler: async ({ req, user, project }) => service.resume(await call(req, user, project)),
  });
  route(router, deps, {
    method: 'put',
    path: `${base}/interval`,
    permission: update,
    body: blockIntervalSchema,
    summary: 'A block every this many milliseconds from the tip on.',
    handler: async ({ req, user, project, body }) => service.setInterval(await call(req, user, project), body.ms),
  });
  route(router, deps, {
    method: 'post',
    path: `${base}/rollback`,
    permission: update,
    body: rollbackSchema,
    summary: 'Takes the tip back this many blocks; their transactions go back to the mempool or are dropped.',
    handler: async ({ req, user, project, body }) => service.rollback(await call(req, user, project), body.blocks, body.txs),
  });
  route(router, deps, {
    method: 'post',
    path: `${base}/time`,
    permission: update,
    body: advanceTimeSchema,
    summary: 'Moves time forward by a number of slots, or to the next epoch.',
    handler: async ({ req, user, project, body }) => service.advance(await call(req, user, project), body),
  });
  route(router, deps, {
    method: 'post',
    path: `${base}/snapshots`,
    permission: update,
    body: snapshotSchema,
    status: 201,
    summary: 'Takes a named snapshot of the chain (tip, ledger).',
    handler: async ({ req, user, project, body }) => service.snapshot(await call(req, user, project), body.name),
  });
  route(router, deps, {
    method: 'post',
    path: `${base}/snapshots/:name/restore`,
    permission: update,
    params: nameParams,
    summary: 'Brings the chain back to a snapshot.',
    handler: async ({ req, user, project, params }) => service.restore(await call(req, user, project), params.name),
  });
  route(router, deps, {
    method: 'delete',
    path: `${base}/snapshots/:name`,
    permission: update,
    params: nameParams,
    summary: 'Deletes a snapshot.',
    handler: async ({ req, user, project, params }) => service.deleteSnapshot(await call(req, user, project), params.name),
  });
  route(router, deps, {
    method: 'post',
    path: `${base}/reset`,
    permission: update,
    summary: 'Starts the chain again from its genesis (a new chain: its transactions are forgotten; snapshots stay).',
    handler: async ({ req, user, project }) => service.reset(await call(req, user, project)),
  });
  route(router, deps, {
    method: 'post',
    path: `${base}/fund`,
    permission: update,
    body: fundSchema,
    summary: 'Pays an address ada (and native tokens minted under the devnet policy) in the next block.',
    handler: async ({ req, user, project, body }) => service.fund(await call(req, user, project), body),
  });
}
