import fs from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Browser tests need Debian's Chromium. Outside CI they are skipped, loudly, when it is missing;
 * in CI (CI=true) a missing browser is a failure, so no browser test is ever skipped there.
 */
export function browserAvailable(): boolean {
  const ok = fs.existsSync(CHROMIUM);
  if (!ok && process.env.CI) throw new Error(`Chromium not found at ${CHROMIUM}; .ci/run installs it with apt-get install chromium`);
  if (!ok) console.warn(`SKIPPING browser tests: no Chromium at ${CHROMIUM} (apt-get install -y chromium)`);
  return ok;
}

/**
 * Chromium's own flags for the tests, beside the machine's rules (no sandbox, no GPU, no background
 * networking). Headless Chromium still builds each window's omnibox popup as WebUI pages of its own
 * (two per browser context, each in a renderer process): without them the browser tests cost about a
 * third less of Chromium's CPU time, and no test looks at the browser's own UI.
 */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup,WebUIOmniboxFullPopup'],
  });
}
