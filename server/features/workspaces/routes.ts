import type { Router } from 'express';
import { z } from 'zod';
import { linkBase } from '../../http/link-base';
import { route, type RouteDeps } from '../../http/route';
import { dbIdSchema } from '../../../shared/text';
import { assignableRoleSchema, inviteSchema, workspaceNameSchema } from '../../../shared/workspaces';
import {
  changeMemberRole,
  createWorkspace,
  deleteWorkspace,
  getWorkspace,
  leaveWorkspace,
  findMember,
  listMembers,
  listWorkspaces,
  planTransfer,
  removeMember,
  renameWorkspace,
  transferWorkspace,
} from './workspaces';
import { auditBy } from '../audit/index';
import { searchPageQuerySchema } from '../../../shared/page-query';
import { acceptInvitation, createInvitation, listInvitations, previewInvitation, revokeInvitation } from './invitations';

const userIdSchema = dbIdSchema('newOwnerId must be a user id');
const memberParams = z.object({ id: z.string(), userId: dbIdSchema('The member id must be a user id.') });

export function registerWorkspaceRoutes(router: Router, deps: RouteDeps): void {
  const { db, config, mailer } = deps;

  route(router, deps, {
    method: 'get',
    path: '/workspaces',
    permission: 'signedIn',
    query: searchPageQuerySchema,
    paged: true,
    summary: "One page of the caller's workspaces, oldest first; `q` keeps those whose name contains it.",
    handler: ({ user, query }) => listWorkspaces(db, user!.id, query),
  });

  route(router, deps, {
    method: 'post',
    path: '/workspaces',
    permission: 'signedIn',
    status: 201,
    body: z.object({ name: workspaceNameSchema }),
    handler: ({ user, body }) => createWorkspace(db, user!.id, body.name),
  });

  route(router, deps, {
    method: 'get',
    path: '/workspaces/:id',
    permission: { workspace: 'workspace.view' },
    handler: ({ user, membership }) => getWorkspace(db, membership.workspaceId, user!.id),
  });

  route(router, deps, {
    method: 'put',
    path: '/workspaces/:id',
    permission: { workspace: 'workspace.change_name' },
    body: z.object({ name: workspaceNameSchema }),
    handler: async ({ req, user, membership, body }) => {
      await renameWorkspace(db, membership.workspaceId, body.name);
      if (body.name !== membership.name) await auditBy(db, req, user, membership.workspaceId)('workspace.renamed', { type: 'workspace', id: membership.workspaceId, label: body.name }, { from: membership.name, to: body.name });
      return getWorkspace(db, membership.workspaceId, user!.id);
    },
  });

  route(router, deps, {
    method: 'delete',
    path: '/workspaces/:id',
    permission: { workspace: 'workspace.delete' },
    handler: async ({ membership }) => {
      await deleteWorkspace(db, membership.workspaceId);
      return { deleted: true };
    },
  });

  route(router, deps, {
    method: 'get',
    path: '/workspaces/:id/transfer/dry',
    permission: { workspace: 'workspace.transfer' },
    query: z.object({ newOwnerId: userIdSchema }),
    handler: ({ membership, query }) => planTransfer(db, membership, query.newOwnerId),
  });

  route(router, deps, {
    method: 'post',
    path: '/workspaces/:id/transfer',
    permission: { workspace: 'workspace.transfer' },
    body: z.object({ newOwnerId: userIdSchema }),
    handler: async ({ req, user, membership, body }) => {
      const newOwner = await findMember(db, membership.workspaceId, body.newOwnerId);
      await transferWorkspace(db, membership, body.newOwnerId);
      await auditBy(db, req, user, membership.workspaceId)('workspace.ownership_transferred', { type: 'workspace', id: membership.workspaceId, label: membership.name }, { from: user.email, to: newOwner?.email ?? `user ${body.newOwnerId}` });
      return getWorkspace(db, membership.workspaceId, user!.id);
    },
  });

  // ---- members ----
  route(router, deps, {
    method: 'get',
    path: '/workspaces/:id/members',
    permission: { workspace: 'members.view' },
    query: searchPageQuerySchema,
    paged: true,
    summary: "One page of the workspace's members, the owner first, then in the order they joined; `q` searches their e-mail addresses.",
    handler: ({ membership, query }) => listMembers(db, membership.workspaceId, query),
  });

  route(router, deps, {
    method: 'put',
    path: '/workspaces/:id/members/:userId',
    permission: { workspace: 'members.update' },
    params: memberParams,
    body: z.object({ role: assignableRoleSchema }),
    paged: true,
    summary: "Change a member's role; answers the first page of the members.",
    handler: async ({ req, user, membership, params, body }) => {
      const member = await findMember(db, membership.workspaceId, params.userId);
      await changeMemberRole(db, membership.workspaceId, params.userId, body.role);
      if (member && member.role_name !== body.role) {
        await auditBy(db, req, user, membership.workspaceId)('member.role_changed', { type: 'member', id: member.user_id, label: member.email }, { from: member.role_name, to: body.role });
      }
      return listMembers(db, membership.workspaceId);
    },
  });

  route(router, deps, {
    method: 'delete',
    path: '/workspaces/:id/members/:userId',
    permission: { workspace: 'members.delete' },
    params: memberParams,
    paged: true,
    summary: 'Remove a member; answers the first page of the members.',
    handler: async ({ req, user, membership, params }) => {
      const member = await findMember(db, membership.workspaceId, params.userId);
      await removeMember(db, membership.workspaceId, params.userId);
      if (member) await auditBy(db, req, user, membership.workspaceId)('member.removed', { type: 'member', id: member.user_id, label: member.email }, { role: member.role_name });
      return listMembers(db, membership.workspaceId);
    },
  });

  route(router, deps, {
    method: 'post',
    path: '/workspaces/:id/leave',
    permission: { workspace: 'workspace.leave' },
    handler: async ({ req, user, membership }) => {
      await leaveWorkspace(db, membership, user!.id);
      await auditBy(db, req, user, membership.workspaceId)('member.left', { type: 'member', id: user.id, label: user.email }, { role: membership.role });
      return { left: true };
    },
  });

  // ---- invitations ----
  route(router, deps, {
    method: 'get',
    path: '/workspaces/:id/invitations',
    permission: { workspace: 'invites.view' },
    query: searchPageQuerySchema,
    paged: true,
    summary: "One page of the workspace's pending invitations, oldest first; `q` searches the invited addresses.",
    handler: ({ membership, query }) => listInvitations(db, membership.workspaceId, query),
  });

  route(router, deps, {
    method: 'post',
    path: '/workspaces/:id/invitations',
    permission: { workspace: 'invites.add' },
    status: 201,
    body: inviteSchema,
    handler: async ({ req, user, membership, body }) => {
      const { invitation, token } = await createInvitation(db, membership, user!.id, body.email, body.role);
      await auditBy(db, req, user, membership.workspaceId)('invitation.sent', { type: 'invitation', id: invitation.id, label: invitation.email }, { role: body.role });
      const link = `${linkBase(config, req)}/workspace-invite/${token}`;
      await mailer.send({
        to: body.email,
        subject: `You are invited to ${membership.name} on Cairn`,
        text: `${user!.email} invited you to the workspace "${membership.name}" on Cairn as ${body.role}.\n\nAccept the invitation here:\n\n${link}\n\nThe invitation works once and expires in 7 days.`,
      });
      return invitation;
    },
  });

  route(router, deps, {
    method: 'delete',
    path: '/workspaces/:id/invitations/:invitationId',
    permission: { workspace: 'invites.delete' },
    params: z.object({ id: z.string(), invitationId: z.string().uuid('Invitation not found.') }),
    paged: true,
    summary: 'Revoke a pending invitation; answers the first page of the pending invitations.',
    handler: async ({ req, user, membership, params }) => {
      const revoked = await revokeInvitation(db, membership.workspaceId, params.invitationId);
      await auditBy(db, req, user, membership.workspaceId)('invitation.revoked', { type: 'invitation', id: params.invitationId, label: revoked.email }, { role: revoked.role });
      return listInvitations(db, membership.workspaceId);
    },
  });

  const tokenParams = z.object({ token: z.string().regex(/^[\w-]{16,64}$/, 'This invitation does not exist or has been revoked.') });

  route(router, deps, {
    method: 'get',
    path: '/invitations/:token',
    permission: 'signedIn',
    params: tokenParams,
    handler: ({ params }) => previewInvitation(db, params.token),
  });

  route(router, deps, {
    method: 'post',
    path: '/invitations/:token/accept',
    permission: 'signedIn',
    params: tokenParams,
    handler: async ({ req, user, params }) => {
      const accepted = await acceptInvitation(db, params.token, user);
      await auditBy(db, req, user, accepted.workspaceId)('invitation.accepted', { type: 'invitation', id: accepted.invitationId, label: user.email }, { role: accepted.role });
      return { workspaceId: accepted.workspaceId };
    },
  });
}
