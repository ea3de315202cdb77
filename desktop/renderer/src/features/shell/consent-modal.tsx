import { useState } from 'react';
import { Button, Checkbox, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { messages } from '../../../../../shared/messages';
import { ModalDialog } from '../../components/modal-dialog';
import { settingsQueries, useSaveSettings } from '../settings/queries';

/** Asks once for marketing consent: shown while the stored choice is unset, closed when Save Preferences succeeds. */
export function MarketingConsentModal() {
  const settings = useQuery(settingsQueries.settings());
  const save = useSaveSettings();
  const [consent, setConsent] = useState(false);
  const opened = settings.data?.marketing_consent === null;

  return (
    <ModalDialog opened={opened} title="Your communication preferences">
      <Stack gap="md">
        <Text size="sm">
          We occasionally send e-mails about new features, network upgrades and offers. Would you like to receive them? You
          can change your mind at any time in Settings.
        </Text>
        <Checkbox
          label="Yes, send me product news and offers by e-mail"
          checked={consent}
          onChange={(event) => setConsent(event.currentTarget.checked)}
          disabled={save.isPending}
        />
        <Group justify="flex-end">
          <Button
            loading={save.isPending}
            onClick={() =>
              save.mutate({ marketing_consent: consent }, {
                onSuccess: () => notifications.show({ color: 'teal', message: messages.preferences.saved }),
                onError: () => notifications.show({ color: 'red', message: messages.preferences.failed }),
              })
            }
          >
            Save Preferences
          </Button>
        </Group>
      </Stack>
    </ModalDialog>
  );
}
