import { queryOptions, useMutation } from '@tanstack/react-query';
import type { FaucetRequestBody } from '../../../../../shared/sandbox-faucet';
import { apiFetch } from '../../api/client';

interface DevWalletsDto {
  network: string;
  faucet: { address: string; policyId: string };
  wallets: Array<{ mnemonic: string; address: string; stakeAddress: string }>;
}

export interface FaucetPaymentDto {
  txHash: string;
  height: number;
  lovelace: string;
  assets: Array<{ unit: string; quantity: string }>;
}

export const faucetQueries = {
  /** GET /dev/wallets: answers only outside production and to loopback clients, so it also says whether the faucet is here. */
  wallets: () =>
    queryOptions({
      queryKey: ['sandbox-faucet', 'wallets'] as const,
      queryFn: ({ signal }) => apiFetch<DevWalletsDto[]>('/dev/wallets', { signal }),
      retry: false,
      staleTime: Infinity,
    }),
};

export function useFaucet() {
  return useMutation({
    mutationFn: (body: FaucetRequestBody) => apiFetch<FaucetPaymentDto>('/dev/faucet', { method: 'POST', body }),
  });
}
