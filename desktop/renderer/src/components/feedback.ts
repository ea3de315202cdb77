import { notifications } from '@mantine/notifications';
import { errorMessage } from '../api/client';

export const failed = (title: string, error: unknown, fallback: string) =>
  notifications.show({ color: 'red', title, message: errorMessage(error, fallback) });

export const succeeded = (title: string, message: string) => notifications.show({ color: 'green', title, message });
