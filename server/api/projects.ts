import type { Router } from 'express';
import { z } from 'zod';
import { route, type RouteDeps } from '../http/route';
import { Invalid } from '../errors';
import { messages } from '../../shared/messages';
import { createProjectSchema, projectNameSchema } from '../../shared/workspaces';
import { createProject, deleteProject, getProject, listProjects, renameProject } from '../services/projects';
import { membershipOf } from '../services/workspaces';
import { findNetwork } from '../../shared/networks';
import { NotFound } from '../errors';

const projectParams = z.object({
  id: z.string().optional(),
  workspaceId: z.string().optional(),
  projectId: z.string().uuid('Project not found.'),
});

export function registerProjectRoutes(router: Router, deps: RouteDeps, sandboxed: Pick<ReadonlySet<string>, 'has'>): void {
  const { db } = deps;
  // Projects of a network served by the sandbox chain carry the 'Sandbox data' badge.
  const mark = <P extends { network_id: number }>(p: P) => ({ ...p, sandbox: sandboxed.has(findNetwork(p.network_id)?.slug ?? '') });

  // The project page knows only the project's uuid; answer it to members of its workspace, 404 to anyone else.
  route(router, deps, {
    method: 'get',
    path: '/projects/:projectId',
    permission: 'signedIn',
    params: z.object({ projectId: z.string().uuid('Project not found.') }),
    handler: async ({ user, params }) => {
      const row = await db('projects').where({ uuid: params.projectId }).first('workspace_id');
      if (!row) throw new NotFound('Project not found.');
      const membership = await membershipOf(db, row.workspace_id, user!.id).catch(() => {
        throw new NotFound('Project not found.');
      });
      return { ...mark(await getProject(db, membership.workspaceId, params.projectId)), role_name: membership.role };
    },
  });

  route(router, deps, {
    method: 'get',
    path: '/workspaces/:id/projects',
    permission: { workspace: 'projects.view' },
    handler: async ({ membership }) => (await listProjects(db, membership.workspaceId)).map(mark),
  });

  route(router, deps, {
    method: 'post',
    path: '/workspaces/:workspaceId/projects',
    permission: { workspace: 'projects.add', denied: messages.permission.createResource('project') },
    status: 201,
    body: createProjectSchema,
    handler: async ({ membership, body }) => {
      if (body.workspaceId !== undefined && body.workspaceId !== membership.workspaceId) {
        throw new Invalid('workspaceId in the body does not match the workspace in the path.');
      }
      const project = await createProject(db, membership, body.projectName, body.networkId);
      return { uuid: project.uuid, project: mark(project) };
    },
  });

  route(router, deps, {
    method: 'get',
    path: '/workspaces/:id/projects/:projectId',
    permission: { workspace: 'projects.view' },
    params: projectParams,
    handler: async ({ membership, params }) => mark(await getProject(db, membership.workspaceId, params.projectId)),
  });

  route(router, deps, {
    method: 'put',
    path: '/workspaces/:id/projects/:projectId',
    permission: { workspace: 'projects.update', denied: 'Only the owner, administrators and maintainers can change projects.' },
    params: projectParams,
    body: z.object({ projectName: projectNameSchema }),
    handler: async ({ membership, params, body }) => mark(await renameProject(db, membership.workspaceId, params.projectId, body.projectName)),
  });

  route(router, deps, {
    method: 'delete',
    path: '/workspaces/:id/projects/:projectId',
    permission: { workspace: 'projects.delete', denied: 'Only the owner, administrators and maintainers can delete projects.' },
    params: projectParams,
    handler: async ({ membership, params }) => {
      await deleteProject(db, membership.workspaceId, params.projectId);
      return { deleted: true };
    },
  });
}
