import { notifications } from '@mantine/notifications';
import { privateEndpointWarning } from '../../../../../shared/webhooks';
import type { QueryClient } from '@tanstack/react-query';
import { apiErrorText } from '../../api/client';
import { webhookQueries } from './queries';

const SAVE_FAILED = 'The webhook could not be saved. Please try again.';

// Saved, but Cairn's guard will refuse the address unless the operator allows it: say so at save time
// (not when WEBHOOK_ALLOWLIST lets it through, which only the server knows).
export const warnIfPrivate = (queryClient: QueryClient, url: string) => {
  if (!privateEndpointWarning(url)) return;
  void queryClient
    .fetchQuery(webhookQueries.endpointWarning(url.trim()))
    .then(({ warning }) => {
      if (warning) notifications.show({ color: 'yellow', title: 'Private endpoint', message: warning, autoClose: 10_000 });
    })
    .catch(() => undefined);
};

export const saveFailed = (error: unknown) => notifications.show({ color: 'red', title: 'Webhook not saved', message: apiErrorText(error) ?? SAVE_FAILED });
