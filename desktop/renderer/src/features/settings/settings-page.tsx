import { useState, type FormEvent } from 'react';
import { Button, Checkbox, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { messages } from '../../../../../shared/messages';
import type { CustomerSettings } from '../../../../../shared/workspaces';
import { ErrorView } from '../../components/error-view';
import { PageLayout } from '../../components/page-layout';
import { PageLoader } from '../../components/page-loader';
import { settingsQueries, useSaveSettings } from './queries';

export function SettingsPage() {
  const settings = useQuery(settingsQueries.settings());
  return (
    <PageLayout title="Settings">
      {settings.isPending ? (
        <PageLoader label="Loading your preferences…" />
      ) : settings.isError ? (
        <ErrorView error={settings.error} withRefresh />
      ) : (
        <PreferencesForm settings={settings.data} />
      )}
    </PageLayout>
  );
}

function PreferencesForm({ settings }: { settings: CustomerSettings }) {
  const save = useSaveSettings();
  const [consent, setConsent] = useState(settings.marketing_consent ?? false);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (save.isPending) return;
    save.mutate(
      { marketing_consent: consent },
      {
        onSuccess: () => notifications.show({ color: 'green', title: 'Preferences saved', message: messages.preferences.saved }),
        onError: () => notifications.show({ color: 'red', title: 'Preferences not saved', message: messages.preferences.failed }),
      },
    );
  };
  return (
    <Paper withBorder p="md" maw={640}>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          <Title order={2} size="h3">
            E-mail preferences
          </Title>
          <Checkbox
            label="Send me product news and offers by e-mail"
            description="Service e-mails about your account, sign-in and billing are always sent."
            checked={consent}
            onChange={(e) => setConsent(e.currentTarget.checked)}
          />
          {settings.marketing_consent === null && (
            <Text size="sm" c="dimmed">
              You have not chosen yet.
            </Text>
          )}
          <Group justify="flex-end">
            <Button type="submit" loading={save.isPending}>
              Save Preferences
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
