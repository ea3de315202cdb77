import { queryOptions } from '@tanstack/react-query';
import type { CustomerDto } from '../../../../../shared/billing';
import { apiFetch } from '../../api/client';

/**
 * The signed-in user's customer; `migrate` re-reads it from the provider first (after a checkout).
 * Under the 'billing' key, so whatever invalidates billing refreshes the pricing cards too.
 */
export const customerQuery = (migrate = false) =>
  queryOptions({
    queryKey: ['billing', 'customer', migrate] as const,
    queryFn: ({ signal }) => apiFetch<CustomerDto>(`/api/stripe/get_customer${migrate ? '?migrate=true' : ''}`, { signal }),
  });
