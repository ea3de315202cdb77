import { AsyncEntry } from '@napi-rs/keyring';

/**
 * Whether the OS keychain answers (on Linux: a Secret Service on the session bus, such as gnome-keyring).
 * `npm test` runs the suite through tests/helpers/with-secret-service.sh, which starts one under
 * dbus-run-session where it can; without one the keychain tests are skipped, loudly.
 */
export async function secretServiceAvailable(): Promise<boolean> {
  try {
    const probe = new AsyncEntry('Cairn test probe', `probe-${process.pid}`);
    await probe.setPassword('probe');
    const ok = (await probe.getPassword()) === 'probe';
    await probe.deleteCredential();
    if (ok) return true;
  } catch (error) {
    console.warn(
      `SKIPPING keychain tests: no OS keychain answers here (${(error as Error).message}). ` +
        'Run them with: dbus-run-session -- sh -c \'echo -n pw | gnome-keyring-daemon --unlock --components=secrets; npx vitest run …\' (npm test does this itself).',
    );
  }
  return false;
}
