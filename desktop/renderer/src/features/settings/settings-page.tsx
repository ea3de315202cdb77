import { Button, Checkbox, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { messages } from '../../../../../shared/messages';
import { customerSettingsSchema, type CustomerSettings } from '../../../../../shared/workspaces';
import { ErrorView } from '../../components/error-view';
import { PageLayout } from '../../components/page-layout';
import { PageLoader } from '../../components/page-loader';
import { useZodForm } from '../../components/zod-form';
import { ACCOUNT_EXPORT_PATH } from '../../../../../shared/account';
import { settingsQueries, useSaveSettings } from './queries';
import { SessionsSection } from './sessions-section';
import { DeleteAccountSection } from './delete-account-section';

export function SettingsPage() {
  const settings = useQuery(settingsQueries.settings());
  return (
    <PageLayout title="Settings">
      <Stack gap="lg" maw={760}>
        {settings.isPending ? (
          <PageLoader label="Loading your preferences…" />
        ) : settings.isError ? (
          <ErrorView error={settings.error} withRefresh />
        ) : (
          <PreferencesForm settings={settings.data} />
        )}
        <SessionsSection />
        <YourDataSection />
        <DeleteAccountSection />
      </Stack>
    </PageLayout>
  );
}

function PreferencesForm({ settings }: { settings: CustomerSettings }) {
  const save = useSaveSettings();
  const { form, onSubmit } = useZodForm(customerSettingsSchema, { marketing_consent: settings.marketing_consent ?? false });
  const submit = onSubmit((values) => {
    if (save.isPending) return;
    save.mutate(
      values,
      {
        onSuccess: () => notifications.show({ color: 'green', title: 'Preferences saved', message: messages.preferences.saved }),
        onError: () => notifications.show({ color: 'red', title: 'Preferences not saved', message: messages.preferences.failed }),
      },
    );
  });
  return (
    <Paper withBorder p="md">
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <Title order={2} size="h3">
            E-mail preferences
          </Title>
          <Checkbox
            label="Send me product news and offers by e-mail"
            description="Service e-mails about your account, sign-in and billing are always sent."
            {...form.getInputProps('marketing_consent', { type: 'checkbox' })}
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

/** A copy of what Cairn keeps about the user, as a JSON file. */
function YourDataSection() {
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="your-data-title">
      <Stack gap="sm">
        <Title order={2} size="h3" id="your-data-title">
          Your data
        </Title>
        <Text size="sm">
          Download a JSON file with your profile, linked sign-in providers, settings, memberships, the workspaces you own with their projects, your sessions and
          invitations. It holds no API keys, tokens or session ids.
        </Text>
        <div>
          <Button component="a" href={ACCOUNT_EXPORT_PATH} download variant="default" leftSection={<IconDownload size={16} aria-hidden />}>
            Download my data
          </Button>
        </div>
      </Stack>
    </Paper>
  );
}
