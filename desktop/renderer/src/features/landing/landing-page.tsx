import { useEffect, useRef, useState } from 'react';
import { useDocumentTitle } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useNav } from '../../lib/nav';
import { landingAnchors } from '../../../../../shared/site';
import { meQueries } from '../account/index';
import { PricingSection, type PlanKind } from '../pricing/index';
import { siteQueries } from '../site/index';
import { ContactSection } from './contact-section';
import { FeaturesSection } from './features-section';
import { Hero } from './hero';
import { SiteFooter } from './site-footer';
import { SiteHeader } from './site-header';
import classes from './landing.module.css';

const PITCH = 'Instant API access to the Cardano blockchain and IPFS';

const anchorOf = (hash: string) => decodeURIComponent(hash.replace(/^#/, ''));

/**
 * Scrolls to the element the URL's #anchor names once it is on the page, after the router's own scroll
 * handling (which may restore an older position on a fresh load).
 */
function useScrollToAnchor(hash: string, navigationKey: string) {
  const pending = useRef<string | null>(anchorOf(hash) || null);
  useEffect(() => {
    pending.current = anchorOf(hash) || null;
  }, [hash, navigationKey]);
  useEffect(() => {
    if (!pending.current) return;
    const frame = requestAnimationFrame(() => {
      const id = pending.current;
      const target = id ? document.getElementById(id) : null;
      if (target) {
        target.scrollIntoView({ block: 'start' });
        pending.current = null;
      }
    });
    return () => cancelAnimationFrame(frame);
  });
}

/** The public page at /. It is in the entry chunk that every first visit downloads, so it stays lean. */
export function LandingPage() {
  useDocumentTitle(`Cairn · ${PITCH}`);
  const { location } = useNav();
  const session = useQuery(meQueries.session());
  const site = useQuery(siteQueries.site()).data;
  const signedIn = !!session.data;
  const dashboardTarget = signedIn ? '/dashboard' : '/auth/signin';

  // #pay-as-you-go opens the pricing on the Pay As You Go tab (on load and when the anchor changes).
  const [kind, setKind] = useState<PlanKind>(() => (anchorOf(location.hash) === landingAnchors.payAsYouGo ? 'payg' : 'fixed'));
  useEffect(() => {
    if (anchorOf(location.hash) === landingAnchors.payAsYouGo) setKind('payg');
  }, [location.hash, location.key]);
  useScrollToAnchor(location.hash, location.key);

  // Below the hero renders one frame later, so the first paint (the Largest Contentful Paint) waits only
  // for header and hero. With an #anchor in the URL everything renders at once, so it can be scrolled to.
  const [belowFold, setBelowFold] = useState(() => location.hash !== '');
  useEffect(() => {
    if (belowFold) return;
    let timer = 0;
    const frame = requestAnimationFrame(() => {
      timer = window.setTimeout(() => setBelowFold(true), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      window.clearTimeout(timer);
    };
  }, [belowFold]);

  return (
    <div className={classes.page}>
      <SiteHeader site={site} dashboardTarget={dashboardTarget} />
      <main>
        <Hero dashboardTarget={dashboardTarget} />
        {belowFold && (
          <>
            <FeaturesSection />
            <PricingSection kind={kind} onKindChange={setKind} signedIn={signedIn} site={site} />
            <ContactSection site={site} />
          </>
        )}
      </main>
      {belowFold && <SiteFooter site={site} dashboardTarget={dashboardTarget} />}
    </div>
  );
}
