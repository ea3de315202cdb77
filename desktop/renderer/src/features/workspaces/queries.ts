import { queryOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { AssignableRole } from '../../../../../shared/permissions';
import type {
  InvitationDto,
  InvitationPreview,
  MemberDto,
  QuotaDto,
  TransferPlan,
  WorkspaceDto,
} from '../../../../../shared/workspaces';
import { apiFetch } from '../../api/client';
import { pagedListQuery } from '../../api/pages';
import { PAGE_MAX_LIMIT } from '../../../../../shared/pagination';

const ws = (id: number) => `/api/workspaces/${encodeURIComponent(String(id))}`;

export const workspaceQueries = {
  all: () => ['workspaces'] as const,
  /** Everything cached about one workspace (detail, members, invitations, quota, transfer plans). */
  scope: (id: number) => [...workspaceQueries.all(), id] as const,
  /** The signed-in user's first PAGE_MAX_LIMIT workspaces, oldest first: the picker's list and the default selection. */
  list: () =>
    queryOptions({
      queryKey: [...workspaceQueries.all(), 'list'] as const,
      queryFn: ({ signal }) => apiFetch<WorkspaceDto[]>(`/api/workspaces?limit=${PAGE_MAX_LIMIT}`, { signal }),
    }),
  /** The user's workspaces a page at a time, for the workspaces page; `q` searches names. */
  pages: (q = '') => pagedListQuery<WorkspaceDto, readonly unknown[]>([...workspaceQueries.all(), 'list', 'pages', ...(q ? [q] : [])], '/api/workspaces', { q }),
  detail: (id: number) =>
    queryOptions({
      queryKey: [...workspaceQueries.scope(id), 'detail'] as const,
      queryFn: ({ signal }) => apiFetch<WorkspaceDto>(ws(id), { signal }),
    }),
  /** The workspace's first PAGE_MAX_LIMIT members, owner first, for choosers (transfer, the audit log's actor filter). */
  members: (id: number) =>
    queryOptions({
      queryKey: [...workspaceQueries.scope(id), 'members'] as const,
      queryFn: ({ signal }) => apiFetch<MemberDto[]>(`${ws(id)}/members?limit=${PAGE_MAX_LIMIT}`, { signal }),
    }),
  /** The workspace's members a page at a time, for the members list. */
  memberPages: (id: number) => pagedListQuery<MemberDto, readonly unknown[]>([...workspaceQueries.scope(id), 'members', 'pages'], `${ws(id)}/members`),
  invitations: (id: number) => pagedListQuery<InvitationDto, readonly unknown[]>([...workspaceQueries.scope(id), 'invitations'], `${ws(id)}/invitations`),
  /** The owner's plan, its limits and what is used; spec section 7 refreshes it every 30 s. */
  quota: (id: number) =>
    queryOptions({
      queryKey: [...workspaceQueries.scope(id), 'quota'] as const,
      queryFn: ({ signal }) => apiFetch<QuotaDto>(`${ws(id)}/quota`, { signal }),
      refetchInterval: 30_000,
    }),
  transferPlan: (id: number, newOwnerId: number) =>
    queryOptions({
      queryKey: [...workspaceQueries.scope(id), 'transfer', newOwnerId] as const,
      queryFn: ({ signal }) =>
        apiFetch<TransferPlan>(`${ws(id)}/transfer/dry?newOwnerId=${encodeURIComponent(String(newOwnerId))}`, { signal }),
      staleTime: 0,
    }),
};

export const invitationQueries = {
  all: () => ['invitations'] as const,
  preview: (token: string) =>
    queryOptions({
      queryKey: [...invitationQueries.all(), token] as const,
      queryFn: ({ signal }) => apiFetch<InvitationPreview>(`/api/invitations/${encodeURIComponent(token)}`, { signal }),
    }),
};

/**
 * Quotas are pooled over every workspace an owner owns, so a change in one workspace can move the
 * numbers of another: refresh them all.
 */
export const invalidateQuotas = (queryClient: QueryClient) =>
  queryClient.invalidateQueries({
    predicate: (q) => q.queryKey[0] === workspaceQueries.all()[0] && q.queryKey[2] === 'quota',
  });

export function useCreateWorkspace() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => apiFetch<WorkspaceDto>('/api/workspaces', { method: 'POST', body: { name } }),
    // Into the list at once, so selecting the new workspace never meets a list without it.
    onSuccess: (workspace) =>
      queryClient.setQueryData(workspaceQueries.list().queryKey, (list) => (list && !list.some((w) => w.id === workspace.id) ? [...list, workspace] : list)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: workspaceQueries.all() }),
  });
}

export function useRenameWorkspace(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => apiFetch<WorkspaceDto>(ws(id), { method: 'PUT', body: { name } }),
    onSuccess: (workspace) => queryClient.setQueryData(workspaceQueries.detail(id).queryKey, workspace),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: workspaceQueries.list().queryKey }),
        queryClient.invalidateQueries({ queryKey: workspaceQueries.scope(id) }),
      ]),
  });
}

/**
 * After deleting or leaving, the workspace's own queries would answer 404: mark them stale without
 * refetching (the page is about to leave) and refetch only the list, which the selection reads.
 */
const forgetWorkspace = (queryClient: QueryClient, id: number) => {
  void queryClient.invalidateQueries({ queryKey: workspaceQueries.scope(id), refetchType: 'none' });
  void invalidateQuotas(queryClient);
  return queryClient.invalidateQueries({ queryKey: workspaceQueries.list().queryKey });
};

export function useDeleteWorkspace(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiFetch<{ deleted: true }>(ws(id), { method: 'DELETE' }),
    onSuccess: () => {
      void forgetWorkspace(queryClient, id);
    },
  });
}

export function useLeaveWorkspace(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiFetch<{ left: true }>(`${ws(id)}/leave`, { method: 'POST' }),
    onSuccess: () => {
      void forgetWorkspace(queryClient, id);
    },
  });
}

export function useChangeMemberRole(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, role }: { userId: number; role: AssignableRole }) =>
      apiFetch<MemberDto[]>(`${ws(id)}/members/${userId}`, { method: 'PUT', body: { role } }),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: workspaceQueries.scope(id) }),
        queryClient.invalidateQueries({ queryKey: workspaceQueries.list().queryKey }),
      ]),
  });
}

export function useRemoveMember(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: number) => apiFetch<MemberDto[]>(`${ws(id)}/members/${userId}`, { method: 'DELETE' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: workspaceQueries.scope(id) }),
  });
}

export function useInviteMember(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { email: string; role: AssignableRole }) =>
      apiFetch<InvitationDto>(`${ws(id)}/invitations`, { method: 'POST', body }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: workspaceQueries.scope(id) }),
  });
}

export function useRevokeInvitation(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (invitationId: string) =>
      apiFetch<InvitationDto[]>(`${ws(id)}/invitations/${encodeURIComponent(invitationId)}`, { method: 'DELETE' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: workspaceQueries.scope(id) }),
  });
}

export function useTransferWorkspace(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (newOwnerId: number) =>
      apiFetch<WorkspaceDto>(`${ws(id)}/transfer`, { method: 'POST', body: { newOwnerId } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: workspaceQueries.all() }),
  });
}

export function useAcceptInvitation(token: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      apiFetch<{ workspaceId: number }>(`/api/invitations/${encodeURIComponent(token)}/accept`, { method: 'POST' }),
    // The list must hold the new workspace before it can be selected, so wait for the refetch.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: workspaceQueries.list().queryKey }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: invitationQueries.preview(token).queryKey }),
  });
}
