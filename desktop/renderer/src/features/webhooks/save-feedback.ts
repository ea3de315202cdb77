import { notifications } from '@mantine/notifications';
import { privateEndpointWarning } from '../../../../../shared/webhooks';
import { apiErrorText } from '../../api/client';

const SAVE_FAILED = 'The webhook could not be saved. Please try again.';

// Saved, but Cairn's guard will refuse the address unless the operator allows it: say so at save time.
export const warnIfPrivate = (url: string) => {
  const warning = privateEndpointWarning(url);
  if (warning) notifications.show({ color: 'yellow', title: 'Private endpoint', message: warning, autoClose: 10_000 });
};

export const saveFailed = (error: unknown) => notifications.show({ color: 'red', title: 'Webhook not saved', message: apiErrorText(error) ?? SAVE_FAILED });
