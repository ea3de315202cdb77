import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { ConsoleRequest, KeptKey } from '../../../../preload/bridge';
import { desktopBridge } from '../../lib/desktop';

const bridge = () => {
  const b = desktopBridge();
  if (!b) throw new Error('The keychain is part of the Cairn desktop app.');
  return b;
};

export const keptKeyQueries = {
  all: () => ['kept-keys'] as const,
  /** Keys kept in the OS keychain (never the keys themselves), with whether their projects still exist. */
  list: () => queryOptions({ queryKey: keptKeyQueries.all(), queryFn: (): Promise<KeptKey[]> => bridge().keychain.list(), staleTime: 30_000 }),
};

export function useKeepKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (projectUuid: string) => bridge().keychain.keep(projectUuid),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keptKeyQueries.all() }),
  });
}

export function useRemoveKeptKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (projectUuid: string) => bridge().keychain.remove(projectUuid),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keptKeyQueries.all() }),
  });
}

export function useConsoleRequest() {
  return useMutation({ mutationFn: (request: ConsoleRequest) => bridge().apiConsole.send(request) });
}
