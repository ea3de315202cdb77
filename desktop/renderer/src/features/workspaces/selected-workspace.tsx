import { createContext, useCallback, useContext, useEffect, useMemo, type ReactNode } from 'react';
import { useLocalStorage } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import type { WorkspaceDto } from '../../../../../shared/workspaces';
import { NotInAnyWorkspace } from '../../components/empty-state';
import { ErrorView } from '../../components/error-view';
import { PageLoader } from '../../components/page-loader';
import { PAGE_MAX_LIMIT } from '../../../../../shared/pagination';
import { workspaceQueries } from './queries';

const SELECTED_WORKSPACE_KEY = 'cairn.workspace';

interface SelectedWorkspace {
  /** The selected workspace: the stored choice while it still exists, else the first; null while loading or with none. */
  workspace: WorkspaceDto | null;
  /** The signed-in user's workspaces, oldest first: the first PAGE_MAX_LIMIT, plus the selected one when it lies beyond them. */
  workspaces: WorkspaceDto[];
  select: (id: number) => void;
  isPending: boolean;
  error: unknown;
}

const SelectedWorkspaceContext = createContext<SelectedWorkspace | null>(null);

const parseId = (raw: string | undefined): number | null => {
  const n = Number(raw);
  return raw && Number.isSafeInteger(n) && n > 0 ? n : null;
};

/** Picks the stored workspace if the user still has it, else the first (spec section 4). */
const resolveSelection = (workspaces: readonly WorkspaceDto[], storedId: number | null): WorkspaceDto | null =>
  workspaces.find((w) => w.id === storedId) ?? workspaces[0] ?? null;

/** Holds which workspace the dashboard shows, remembered in localStorage and shared across tabs. */
export function SelectedWorkspaceProvider({ children }: { children: ReactNode }) {
  const list = useQuery(workspaceQueries.list());
  const [storedId, setStoredId] = useLocalStorage<number | null>({
    key: SELECTED_WORKSPACE_KEY,
    defaultValue: null,
    getInitialValueInEffect: false,
    serialize: (v) => (v === null ? '' : String(v)),
    deserialize: parseId,
  });

  // The list holds the first page of workspaces; a stored choice beyond it is asked for by id.
  const firstPage = list.data;
  const beyond = !!firstPage && firstPage.length >= PAGE_MAX_LIMIT && storedId !== null && !firstPage.some((w) => w.id === storedId);
  const stored = useQuery({ ...workspaceQueries.detail(storedId ?? 0), enabled: beyond, retry: false });
  const workspaces = useMemo(() => {
    const base = firstPage ?? [];
    return stored.data && !base.some((w) => w.id === stored.data.id) ? [...base, stored.data] : base;
  }, [firstPage, stored.data]);
  const workspace = beyond && stored.isPending ? null : resolveSelection(workspaces, storedId);

  // The stored workspace is gone (deleted, left, removed): forget it, but only once the list is
  // fresh, so a workspace just joined is not dropped before the refetch that brings it in.
  const settled = list.isSuccess && !list.isFetching && !(beyond && stored.isFetching);
  const resolvedId = workspace?.id ?? null;
  useEffect(() => {
    if (settled && resolvedId !== storedId) setStoredId(resolvedId);
  }, [settled, resolvedId, storedId, setStoredId]);

  const select = useCallback((id: number) => setStoredId(id), [setStoredId]);

  const value = useMemo<SelectedWorkspace>(
    () => ({ workspace, workspaces, select, isPending: list.isPending || (beyond && stored.isPending), error: list.error }),
    [workspace, workspaces, select, list.isPending, beyond, stored.isPending, list.error],
  );
  return <SelectedWorkspaceContext.Provider value={value}>{children}</SelectedWorkspaceContext.Provider>;
}

export function useSelectedWorkspace(): SelectedWorkspace {
  const value = useContext(SelectedWorkspaceContext);
  if (!value) throw new Error('useSelectedWorkspace must be used inside SelectedWorkspaceProvider');
  return value;
}

/**
 * The body of a page about the selected workspace: a loader until the workspaces are known, then the
 * page's content for the selected one; the error when they could not be loaded; or, for someone in no
 * workspace at all, the way to one (`missing` says what lives in workspaces).
 */
export function WithSelectedWorkspace({ missing, children }: { missing: string; children: (workspace: WorkspaceDto) => ReactNode }) {
  const { workspace, isPending, error } = useSelectedWorkspace();
  if (isPending) return <PageLoader label="Loading workspaces…" />;
  if (workspace) return children(workspace);
  if (error) return <ErrorView error={error} withRefresh />;
  return <NotInAnyWorkspace>{missing}</NotInAnyWorkspace>;
}
