import { useState } from 'react';
import { Button, Stack, Text } from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import { desktopBridge } from '../../lib/desktop';

/**
 * In the desktop app, signing in happens in the system browser (Google and GitHub refuse embedded browsers):
 * the app opens it with a PKCE challenge and takes the session back by the cairn:// link.
 */
export function DesktopSignIn() {
  const bridge = desktopBridge();
  const [state, setState] = useState<{ waiting: boolean; error: string | null }>({ waiting: false, error: null });
  if (!bridge) return null;
  const start = () => {
    setState({ waiting: true, error: null });
    bridge.auth.signIn().then(
      () => setState({ waiting: false, error: null }),
      (error: unknown) => setState({ waiting: false, error: error instanceof Error ? error.message.replace(/^Error invoking remote method '[^']+': (Error: )?/, '') : String(error) }),
    );
  };
  return (
    <Stack gap="xs">
      <Button size="md" fullWidth leftSection={<IconExternalLink size={18} aria-hidden />} loading={state.waiting} onClick={start}>
        Sign in with your browser
      </Button>
      <Text size="sm" c="dimmed">
        {state.waiting ? 'Finish signing in in your browser; Cairn comes back here by itself.' : 'Your browser opens Cairn’s sign-in page; every sign-in method works there.'}
      </Text>
      {state.error && (
        <Text size="sm" c="red" role="alert">
          {state.error}
        </Text>
      )}
    </Stack>
  );
}
