import { useEffect, useRef, useState } from 'react';
import { Paper, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { ErrorView } from '../../components/error-view';
import { PageLoader } from '../../components/page-loader';
import { usePageTitle } from '../../components/use-page-title';
import { signOut } from './queries';
import { forgetConsentDeferral } from '../shell/index';

export function SignOutPage() {
  usePageTitle('Signing out');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [error, setError] = useState<unknown>(null);
  // Sign out once per visit, even when React runs effects twice in development.
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    signOut()
      .then(() => {
        queryClient.clear();
        forgetConsentDeferral();
        navigate('/auth/signin', { replace: true });
      })
      .catch(setError);
  }, [navigate, queryClient]);

  if (error) return <ErrorView error={error} withRefresh />;
  return (
    <Paper withBorder p="xl">
      <Stack align="center" gap="xs">
        <Title order={1} size="h3">
          Signing out…
        </Title>
        <PageLoader label="Signing out…" minHeight={80} />
        <Text size="sm" c="dimmed">
          You will be taken to the sign-in page.
        </Text>
      </Stack>
    </Paper>
  );
}
