import { useEffect, useRef } from 'react';
import { Button, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle } from '@tabler/icons-react';
import { Link, useSearchParams } from 'react-router-dom';
import { authErrorReason } from '../../../../../shared/auth';
import { usePageTitle } from '../../components/use-page-title';

export function AuthErrorPage() {
  usePageTitle('Sign-in error');
  const [searchParams] = useSearchParams();
  const reason = authErrorReason(searchParams.get('error'));

  const shown = useRef<string | null>(null);
  useEffect(() => {
    if (shown.current === reason) return;
    shown.current = reason;
    notifications.show({ color: 'red', title: 'Sign-in error', message: reason });
  }, [reason]);

  return (
    <Paper withBorder p="xl">
      <Stack align="center" ta="center" gap="md">
        <ThemeIcon size={56} radius="xl" variant="light" color="red" aria-hidden>
          <IconAlertTriangle size={32} />
        </ThemeIcon>
        <Title order={1} size="h2">
          Sign-in error
        </Title>
        <Text>{reason}</Text>
        <Button component={Link} to="/auth/signin">
          Back to sign in
        </Button>
      </Stack>
    </Paper>
  );
}
