import { useState } from 'react';
import { Button, Checkbox, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { useLocation } from 'react-router-dom';
import { messages } from '../../../../../shared/messages';
import { ModalDialog } from '../../components/modal-dialog';
import { settingsQueries, useSaveSettings } from '../settings/index';

/** Set for this browser session when the user answers later; cleared on sign-out, so the question comes back next sign-in. */
const LATER_KEY = 'cairn_marketing_consent_later';

const answeredLater = () => {
  try {
    return window.sessionStorage.getItem(LATER_KEY) === '1';
  } catch {
    return false;
  }
};

function answerLater() {
  try {
    window.sessionStorage.setItem(LATER_KEY, '1');
  } catch {
    // No session storage (a locked-down browser): the question is gone until the page reloads.
  }
}

/** Forgets an "answer later", so the question comes back (sign-out calls it). */
export function forgetConsentDeferral() {
  try {
    window.sessionStorage.removeItem(LATER_KEY);
  } catch {
    // Nothing stored.
  }
}

/**
 * Asks for marketing consent while the stored choice is unset: only on the dashboard's home page, never over
 * a page the user came to for something else (an invitation, a checkout, an order), and the user can answer
 * later (close, Escape or 'Answer later'): it asks again after the next sign-in. Save Preferences stores it.
 */
export function MarketingConsentModal() {
  const settings = useQuery(settingsQueries.settings());
  const save = useSaveSettings();
  const [consent, setConsent] = useState(false);
  const [later, setLater] = useState(answeredLater);
  const atHome = useLocation().pathname.replace(/\/+$/, '') === '/dashboard';
  const opened = atHome && !later && settings.data?.marketing_consent === null;
  const dismiss = () => {
    answerLater();
    setLater(true);
  };

  return (
    <ModalDialog opened={opened} onClose={dismiss} title="Your communication preferences">
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
          <Button variant="default" onClick={dismiss} disabled={save.isPending}>
            Answer later
          </Button>
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
