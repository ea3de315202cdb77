import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { AuditFilter, AuditPageDto } from '../../../../../shared/audit';
import { apiFetch } from '../../api/client';

const base = (workspaceId: number) => `/api/workspaces/${encodeURIComponent(String(workspaceId))}/audit`;

/** The filters as query parameters, without the empty ones. */
export const filterParams = (filter: AuditFilter, extra: Record<string, string | undefined> = {}): URLSearchParams => {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries({ ...filter, ...extra })) if (v) params.set(k, String(v));
  return params;
};

export const auditQueries = {
  all: (workspaceId: number) => ['workspaces', workspaceId, 'audit'] as const,
  /** One page of the log: `before` is the cursor of the page before it (undefined: the newest). */
  page: (workspaceId: number, filter: AuditFilter, before: string | undefined, limit: number) =>
    queryOptions({
      queryKey: [...auditQueries.all(workspaceId), filter, before ?? null, limit] as const,
      queryFn: ({ signal }) => apiFetch<AuditPageDto>(`${base(workspaceId)}?${filterParams(filter, { before, limit: String(limit) })}`, { signal }),
      placeholderData: keepPreviousData,
    }),
};

/** The CSV export of the entries matching the filters: a plain link the browser downloads. */
export const exportUrl = (workspaceId: number, filter: AuditFilter): string => {
  const q = filterParams(filter).toString();
  return `${base(workspaceId)}/export.csv${q ? `?${q}` : ''}`;
};
