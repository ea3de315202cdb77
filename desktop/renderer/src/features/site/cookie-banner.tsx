import { useState, useSyncExternalStore } from 'react';
import { Anchor, Button, Paper, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { messages } from '../../../../../shared/messages';
import { CONSENT_COOKIE, CONSENT_COOKIE_MAX_AGE_S } from '../../../../../shared/site';
import { siteQueries } from './queries';
import classes from './cookie-banner.module.css';

const COOKIE_POLICY_WORDS = 'Cookie Policy';

const hasConsentCookie = () => document.cookie.split(';').some((part) => part.trim().startsWith(`${CONSENT_COOKIE}=`));

function storeConsent() {
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${CONSENT_COOKIE}=1; path=/; max-age=${CONSENT_COOKIE_MAX_AGE_S}; SameSite=Lax${secure}`;
}

const noSubscription = () => () => undefined;

/**
 * The cookie notice of every page, public and dashboard; Accept stores a consent cookie and it stays hidden from then on.
 * It depends on the browser's cookies, so the prerendered landing page (desktop/renderer/prerender.tsx) has none, and hydrating
 * that page renders none either (the server snapshot); it appears in the commit right after.
 */
export function CookieBanner() {
  const inBrowser = useSyncExternalStore(noSubscription, () => true, () => false);
  return inBrowser ? <CookieNotice /> : null;
}

function CookieNotice() {
  const [accepted, setAccepted] = useState(hasConsentCookie);
  const site = useQuery({ ...siteQueries.site(), enabled: !accepted }).data;
  if (accepted) return null;
  // The spec's sentence, with its closing 'Cookie Policy' as a link (COOKIE_POLICY_URL or the built-in page).
  const [before] = messages.cookieBanner.split(COOKIE_POLICY_WORDS);
  return (
    <Paper
      component="section"
      aria-label="Cookie consent"
      shadow="lg"
      withBorder
      radius="md"
      p="md"
      className={classes.banner}
      data-testid="cookie-banner"
    >
      <Text size="sm" className={classes.text}>
        {before}
        <Anchor href={site?.links.cookiePolicy ?? '/cookie-policy'} inherit underline="always">
          {COOKIE_POLICY_WORDS}
        </Anchor>
        .
      </Text>
      <Button
        onClick={() => {
          storeConsent();
          setAccepted(true);
        }}
        className={classes.accept}
      >
        Accept
      </Button>
    </Paper>
  );
}
