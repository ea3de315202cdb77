import { useState } from 'react';
import { Alert, Anchor, Button, List, Paper, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconTrash } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router-dom';
import { accountMessages } from '../../../../../shared/account';
import { ConfirmDeleteModal } from '../../components/confirm-delete-modal';
import { ErrorView } from '../../components/error-view';
import { PageLoader } from '../../components/page-loader';
import { meQueries } from '../account/index';
import { failed } from '../../components/feedback';
import { accountSecurityQueries, useDeleteAccount } from './queries';

/** Deleting the account: refused with the reason while it owns a workspace with other members. */
export function DeleteAccountSection() {
  const plan = useQuery(accountSecurityQueries.deletion());
  const me = useQuery(meQueries.me());
  const del = useDeleteAccount();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="delete-account-title" style={{ borderColor: 'var(--mantine-color-red-4)' }}>
      <Stack gap="md">
        <Title order={2} size="h3" id="delete-account-title">
          Delete account
        </Title>
        {plan.isPending || me.isPending ? (
          <PageLoader label="Checking your account…" minHeight={60} />
        ) : plan.isError ? (
          <ErrorView error={plan.error} />
        ) : me.isError ? (
          <ErrorView error={me.error} />
        ) : !plan.data.allowed ? (
          <Alert color="orange" variant="light" icon={<IconAlertTriangle aria-hidden />} title="Your account cannot be deleted yet">
            <Stack gap="xs">
              <Text size="sm">{accountMessages.blocked(plan.data.blockers.map((b) => b.name))}</Text>
              <List size="sm">
                {plan.data.blockers.map((b) => (
                  <List.Item key={b.id}>
                    <Anchor component={Link} to={`/dashboard/workspaces/${b.id}`}>
                      {b.name}
                    </Anchor>{' '}
                    ({b.members} members)
                  </List.Item>
                ))}
              </List>
            </Stack>
          </Alert>
        ) : (
          <>
            <Text size="sm">Deleting your account removes your profile, settings and sign-in methods, and signs you out everywhere.</Text>
            {plan.data.workspacesDeleted.length > 0 && (
              <Stack gap={4}>
                <Text size="sm">These workspaces have no other members and are deleted with their projects:</Text>
                <List size="sm">
                  {plan.data.workspacesDeleted.map((w) => (
                    <List.Item key={w.id}>
                      {w.name} ({w.projects} project{w.projects === 1 ? '' : 's'})
                    </List.Item>
                  ))}
                </List>
              </Stack>
            )}
            {plan.data.cancelsSubscription && (
              <Text size="sm">Your {plan.data.cancelsSubscription} subscription is cancelled at once; nothing more is charged.</Text>
            )}
            <div>
              <Button color="red" variant="outline" leftSection={<IconTrash size={16} aria-hidden />} onClick={() => setConfirming(true)}>
                Delete account
              </Button>
            </div>
            <ConfirmDeleteModal
              opened={confirming}
              onClose={() => setConfirming(false)}
              title="Delete your account?"
              confirmation={me.data.email}
              warning={accountMessages.deleteWarning}
              loading={del.isPending}
              onConfirm={() =>
                del.mutate(me.data.email, {
                  onSuccess: () => {
                    setConfirming(false);
                    queryClient.clear();
                    navigate('/auth/signin', { replace: true });
                  },
                  onError: (err) => {
                    failed('Account not deleted', err, 'Your account could not be deleted.');
                    void queryClient.invalidateQueries({ queryKey: accountSecurityQueries.deletion().queryKey });
                  },
                })
              }
            />
          </>
        )}
      </Stack>
    </Paper>
  );
}
