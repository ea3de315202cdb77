// What the bridge's keychain channels do: the key and its names come from the server, never from the renderer,
// and the list says which kept keys belong to projects that were deleted since.
import type { KeptKey } from '../preload/bridge';
import type { ProjectDto, WorkspaceDto } from '../../shared/workspaces';
import type { CairnApi } from './cairn-api';
import type { Keychain } from './keychain';

export async function keepProjectKey(api: CairnApi, keychain: Pick<Keychain, 'keep'>, projectUuid: string, now = Date.now()): Promise<KeptKey> {
  const project = await api.require<ProjectDto>(`/api/projects/${encodeURIComponent(projectUuid)}`);
  const workspace = await api.require<Pick<WorkspaceDto, 'id' | 'name'>>(`/api/workspaces/${project.workspace_id}`);
  const record = {
    projectUuid: project.uuid,
    projectName: project.project_name,
    networkId: project.network_id,
    workspaceId: workspace.id,
    workspaceName: workspace.name,
    key: project.project_id,
    keptAt: now,
  };
  await keychain.keep(record);
  const { key: _key, ...shown } = record;
  return { ...shown, status: 'active' };
}

/** The kept keys with their projects' state on the server (asked in parallel, each on its own). */
export async function listKeptKeys(api: CairnApi, keychain: Pick<Keychain, 'list' | 'secretFor'>): Promise<KeptKey[]> {
  const kept = await keychain.list();
  return Promise.all(
    kept.map(async (k): Promise<KeptKey> => {
      try {
        const answer = await api.get<ProjectDto>(`/api/projects/${encodeURIComponent(k.projectUuid)}`, AbortSignal.timeout(10_000));
        // 404 is the server's answer for a deleted project and for one the user can no longer see: either way the key is of no use.
        if (answer.status !== 200) return { ...k, status: answer.status === 404 ? 'deleted' : 'unknown' };
        // After 'Roll key' the kept key works while it is the current key or the previous one in its grace period.
        const project = answer.data;
        const secret = project ? await keychain.secretFor(k.projectUuid) : null;
        const live = !project || secret === null || secret === project.project_id || secret === project.previous_key?.project_id;
        return { ...k, status: live ? 'active' : 'rolled' };
      } catch {
        return { ...k, status: 'unknown' };
      }
    }),
  );
}
