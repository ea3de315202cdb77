import type { Router } from 'express';
import { route, type RouteDeps } from '../../http/route';
import { Invalid } from '../../errors';
import { createProjectSchema, projectNameSchema } from '../../../shared/workspaces';
import { createProject, deleteProject, getProject, listProjects, renameProject, rollProjectKey, setAllowLists } from './projects';
import { allowListsResponseSchema, allowListsSchema, MAX_ALLOW_LIST_ENTRIES, rolledKeysSchema, rollKeySchema } from '../../../shared/allow-list';
import { findNetwork, networkNotAvailableMessage } from '../../../shared/networks';
import { z } from 'zod';
import { auditBy } from '../audit/index';
import { searchPageQuerySchema } from '../../../shared/page-query';

/**
 * `served` says whether this server can serve a gateway slug now (not turned off by DISABLED_NETWORKS,
 * and with a backend): a project is keyed only to such a network, as Add Project offers.
 */
export function registerProjectRoutes(router: Router, deps: RouteDeps, sandboxed: Pick<ReadonlySet<string>, 'has'>, served: (slug: string) => boolean): void {
  const { db } = deps;
  // Projects of a network served by the sandbox chain carry the 'Sandbox data' badge.
  const mark = <P extends { network_id: number }>(p: P) => ({ ...p, sandbox: sandboxed.has(findNetwork(p.network_id)?.slug ?? '') });

  // The project page knows only the project's uuid; route() finds its workspace and the caller's membership.
  route(router, deps, {
    method: 'get',
    path: '/projects/:projectId',
    permission: { project: 'projects.view' },
    handler: async ({ membership, project }) => ({ ...mark(await getProject(db, project.workspaceId, project.uuid)), role_name: membership.role }),
  });

  route(router, deps, {
    method: 'get',
    path: '/workspaces/:id/projects',
    permission: { workspace: 'projects.view' },
    query: searchPageQuerySchema,
    paged: true,
    summary: "One page of the workspace's projects, oldest first; `q` keeps those whose name contains it.",
    handler: async ({ membership, query }) => (await listProjects(db, membership.workspaceId, query)).map(mark),
  });

  route(router, deps, {
    method: 'post',
    path: '/workspaces/:workspaceId/projects',
    permission: { workspace: 'projects.add' },
    status: 201,
    body: createProjectSchema,
    handler: async ({ req, user, membership, body }) => {
      if (body.workspaceId !== undefined && body.workspaceId !== membership.workspaceId) {
        throw new Invalid('workspaceId in the body does not match the workspace in the path.');
      }
      const network = findNetwork(body.networkId);
      if (network?.slug && !network.disabled && !served(network.slug)) throw new Invalid(networkNotAvailableMessage(network.label));
      const project = await createProject(db, membership, body.projectName, body.networkId);
      // The target is the project's uuid, never its project_id: that is the key requests authenticate with.
      await auditBy(db, req, user, membership.workspaceId)('project.created', { type: 'project', id: project.uuid, label: project.project_name }, { network: findNetwork(project.network_id)?.slug ?? project.network_id });
      return { uuid: project.uuid, project: mark(project) };
    },
  });

  route(router, deps, {
    method: 'get',
    path: '/workspaces/:id/projects/:projectId',
    permission: { project: 'projects.view' },
    handler: async ({ project }) => mark(await getProject(db, project.workspaceId, project.uuid)),
  });

  route(router, deps, {
    method: 'put',
    path: '/workspaces/:id/projects/:projectId',
    permission: { project: 'projects.update' },
    body: z.object({ projectName: projectNameSchema }),
    handler: async ({ req, user, project, body }) => {
      const before = await getProject(db, project.workspaceId, project.uuid);
      const renamed = await renameProject(db, project.workspaceId, project.uuid, body.projectName);
      if (before.project_name !== renamed.project_name) {
        await auditBy(db, req, user, project.workspaceId)('project.renamed', { type: 'project', id: project.uuid, label: renamed.project_name }, { from: before.project_name, to: renamed.project_name });
      }
      return mark(renamed);
    },
  });

  route(router, deps, {
    method: 'delete',
    path: '/workspaces/:id/projects/:projectId',
    permission: { project: 'projects.delete' },
    handler: async ({ req, user, project }) => {
      const before = await getProject(db, project.workspaceId, project.uuid);
      await deleteProject(db, project.workspaceId, project.uuid);
      await auditBy(db, req, user, project.workspaceId)('project.deleted', { type: 'project', id: project.uuid, label: before.project_name });
      return { deleted: true };
    },
  });

  route(router, deps, {
    method: 'post',
    path: '/workspaces/:id/projects/:projectId/roll-key',
    permission: { project: 'projects.update' },
    summary: "Roll the project's key: a new key at once; the old one keeps working for the grace period chosen (none, 1h, 24h, 7d)",
    body: rollKeySchema,
    response: rolledKeysSchema,
    handler: async ({ req, user, project, body }) => {
      const previous = await rollProjectKey(db, project.workspaceId, project.uuid, body.grace);
      const fresh = await getProject(db, project.workspaceId, project.uuid);
      // The keys themselves never go into the audit log: the grace and the old key's expiry do.
      await auditBy(db, req, user, project.workspaceId)('project.key_rolled', { type: 'project', id: project.uuid, label: fresh.project_name }, { grace: body.grace, old_works_until: previous?.expires_at ?? null });
      return { project_id: fresh.project_id, previous_key: previous };
    },
  });

  route(router, deps, {
    method: 'put',
    path: '/workspaces/:id/projects/:projectId/allow-lists',
    permission: { project: 'projects.update' },
    summary: `Replace the project's allow-lists: browser origins, client IPs and CIDRs, and JSON-RPC methods (Milkomeda), at most ${MAX_ALLOW_LIST_ENTRIES} each; an empty list restricts nothing`,
    body: allowListsSchema,
    response: allowListsResponseSchema,
    handler: async ({ req, user, project, body }) => {
      const lists = await setAllowLists(db, project.workspaceId, project.uuid, body);
      const { project_name } = await getProject(db, project.workspaceId, project.uuid);
      await auditBy(db, req, user, project.workspaceId)('project.allowlist_changed', { type: 'project', id: project.uuid, label: project_name }, { origins: lists.origins.join(', '), ips: lists.ips.join(', '), methods: lists.methods.join(', ') });
      return lists;
    },
  });
}
