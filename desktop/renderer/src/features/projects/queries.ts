import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { Role } from '../../../../../shared/permissions';
import type { ProjectDto } from '../../../../../shared/workspaces';
import type { TrackedTxDto } from '../../../../../shared/txs';
import type { NetworkOptionDto } from '../../../../../shared/networks';
import type { AllowLists, KeyGrace, PreviousKeyDto } from '../../../../../shared/allow-list';
import { apiFetch } from '../../api/client';
import { pagedListQuery } from '../../api/pages';
import { invalidateQuotas } from '../workspaces/index';

/** GET /api/projects/:uuid: the project plus the caller's role in its workspace. */
export type ProjectWithRole = ProjectDto & { role_name: Role };

const projectsOf = (workspaceId: number) => `/api/workspaces/${encodeURIComponent(String(workspaceId))}/projects`;

export const projectQueries = {
  all: () => ['projects'] as const,
  lists: () => [...projectQueries.all(), 'list'] as const,
  /** The workspace's projects a page at a time, oldest first; `q` keeps those whose name contains it. */
  list: (workspaceId: number, q = '') => pagedListQuery<ProjectDto, readonly unknown[]>([...projectQueries.lists(), workspaceId, ...(q ? [q] : [])], projectsOf(workspaceId), { q }),
  detail: (uuid: string) =>
    queryOptions({
      queryKey: [...projectQueries.all(), 'detail', uuid] as const,
      queryFn: ({ signal }) => apiFetch<ProjectWithRole>(`/api/projects/${encodeURIComponent(uuid)}`, { signal }),
    }),
  /** The project's latest submitted transactions with their state (GET /api/projects/:uuid/txs), refreshed as blocks come. */
  submissions: (uuid: string) =>
    queryOptions({
      queryKey: [...projectQueries.all(), 'submissions', uuid] as const,
      queryFn: ({ signal }) => apiFetch<{ confirmations: number; resubmit: boolean; txs: TrackedTxDto[] }>(`/api/projects/${encodeURIComponent(uuid)}/txs`, { signal }),
      refetchInterval: 10_000,
    }),
  /** The networks a project can use and whether this server can serve each (GET /api/networks). */
  networks: () =>
    queryOptions({
      queryKey: [...projectQueries.all(), 'networks'] as const,
      queryFn: ({ signal }) => apiFetch<NetworkOptionDto[]>('/api/networks', { signal }),
      staleTime: 0,
    }),
};

interface NewProject {
  projectName: string;
  networkId: number;
}

export function useCreateProject(workspaceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: NewProject) =>
      apiFetch<{ uuid: string; project: ProjectDto }>(projectsOf(workspaceId), {
        method: 'POST',
        body: { ...body, workspaceId },
      }),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: projectQueries.list(workspaceId).queryKey }),
        invalidateQuotas(queryClient),
      ]),
  });
}

export function useRenameProject(project: { uuid: string; workspace_id: number }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (projectName: string) =>
      apiFetch<ProjectDto>(`${projectsOf(project.workspace_id)}/${encodeURIComponent(project.uuid)}`, {
        method: 'PUT',
        body: { projectName },
      }),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: projectQueries.detail(project.uuid).queryKey }),
        queryClient.invalidateQueries({ queryKey: projectQueries.list(project.workspace_id).queryKey }),
      ]),
  });
}

export function useDeleteProject(project: { uuid: string; workspace_id: number }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      apiFetch<{ deleted: true }>(`${projectsOf(project.workspace_id)}/${encodeURIComponent(project.uuid)}`, {
        method: 'DELETE',
      }),
    onSuccess: () => {
      // The page that showed the project is about to leave; its query would only answer 404 now.
      void queryClient.invalidateQueries({ queryKey: projectQueries.detail(project.uuid).queryKey, refetchType: 'none' });
      void queryClient.invalidateQueries({ queryKey: projectQueries.list(project.workspace_id).queryKey });
      void invalidateQuotas(queryClient);
    },
  });
}

/** 'Roll key': a new key at once, the old one kept for the grace period chosen. */
export function useRollKey(project: { uuid: string; workspace_id: number }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (grace: KeyGrace) =>
      apiFetch<{ project_id: string; previous_key: PreviousKeyDto | null }>(`${projectsOf(project.workspace_id)}/${encodeURIComponent(project.uuid)}/roll-key`, {
        method: 'POST',
        body: { grace },
      }),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: projectQueries.detail(project.uuid).queryKey }),
        queryClient.invalidateQueries({ queryKey: projectQueries.list(project.workspace_id).queryKey }),
      ]),
  });
}

export function useSaveAllowLists(project: { uuid: string; workspace_id: number }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (lists: AllowLists) =>
      apiFetch<AllowLists>(`${projectsOf(project.workspace_id)}/${encodeURIComponent(project.uuid)}/allow-lists`, {
        method: 'PUT',
        body: lists,
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: projectQueries.detail(project.uuid).queryKey }),
  });
}

/** Whether the project's rolled-back transactions are submitted again while their validity allows. */
export function useSetTxResubmit(uuid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (resubmit: boolean) =>
      apiFetch<{ resubmit: boolean }>(`/api/projects/${encodeURIComponent(uuid)}/tx-resubmit`, {
        method: 'PUT',
        body: { resubmit },
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: projectQueries.submissions(uuid).queryKey }),
  });
}

/** The blocks that confirm the project's transactions from now on; the submissions card shows them. */
export function useSetTxConfirmations(uuid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (confirmations: number) =>
      apiFetch<{ confirmations: number }>(`/api/projects/${encodeURIComponent(uuid)}/tx-confirmations`, {
        method: 'PUT',
        body: { confirmations },
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: projectQueries.submissions(uuid).queryKey }),
  });
}
