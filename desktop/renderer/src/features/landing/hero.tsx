import { useEffect, useState } from 'react';
import { Button } from '@mantine/core';
import { IconArrowRight } from '@tabler/icons-react';
import { AppLink as Link } from '../../lib/nav';
import { plans } from '../../../../../shared/plans';
import { formatCount } from '../../../../../shared/pricing';
import { HERO_WORD_INTERVAL_MS, heroWords, landingAnchors } from '../../../../../shared/site';
import { BlockTerminal } from './block-terminal';
import classes from './landing.module.css';

/** Cardano, IPFS, Cardano, … every 3 s. Screen readers get both words once instead of a change every 3 s. */
function RotatingWord() {
  const [index, setIndex] = useState(0);
  useEffect(() => {
    const timer = window.setInterval(() => setIndex((i) => (i + 1) % heroWords.length), HERO_WORD_INTERVAL_MS);
    return () => window.clearInterval(timer);
  }, []);
  return (
    <>
      <span key={index} className={classes.heroWord} aria-hidden="true" data-testid="hero-word" data-word={heroWords[index]}>
        {heroWords[index]}
      </span>
      <span className={classes.srOnly}>{heroWords.join(' and ')}</span>
    </>
  );
}

export function Hero({ dashboardTarget }: { dashboardTarget: string }) {
  return (
    <section id={landingAnchors.introduction} aria-labelledby="hero-title" className={classes.hero}>
      <div className={classes.heroGrid}>
        <div className={classes.heroCopy}>
          <p className={classes.heroKicker}>Cardano &amp; IPFS developer platform</p>
          <h1 id="hero-title" className={classes.heroTitle}>
            Instant API access to <RotatingWord />
          </h1>
          <p className={classes.heroLead}>
            Query the Cardano blockchain, store files on IPFS with Filecoin backup and get secure webhooks for on-chain
            events, all from one dashboard you can run on your own servers.
          </p>
          <div className={classes.heroActions}>
            <Button component={Link} to={dashboardTarget} size="lg" rightSection={<IconArrowRight size={18} aria-hidden />}>
              Start Building
            </Button>
            <Button component={Link} to={`/#${landingAnchors.pricing}`} size="lg" variant="white" color="dark">
              View Pricing
            </Button>
          </div>
          <ul className={classes.heroFacts}>
            <li>Free plan with {formatCount(plans.STARTER.requestLimit)} requests a day</li>
            <li>Mainnet, preprod and preview</li>
            <li>Self-hostable on SQLite or PostgreSQL</li>
          </ul>
        </div>
        <BlockTerminal />
      </div>
    </section>
  );
}
