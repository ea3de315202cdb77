import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Badge, Container, Text, Title } from '@mantine/core';
import { planNames, plans, YEARLY_DISCOUNT } from '../../../../../shared/plans';
import { landingAnchors, type SiteInfo } from '../../../../../shared/site';
import { PlansGrid } from '../../components/plans-grid';
import { customerQuery } from './queries';
import { PayAsYouGoCard } from './payg-card';
import { PlanCard, type BillingPeriod } from './plan-card';
import { SegmentedToggle } from './segmented-toggle';
import classes from './pricing.module.css';

export type PlanKind = 'fixed' | 'payg';

interface PricingSectionProps {
  /** Fixed Plans or Pay As You Go; the landing page owns it so #pay-as-you-go can preselect it. */
  kind: PlanKind;
  onKindChange: (kind: PlanKind) => void;
  signedIn: boolean;
  site: SiteInfo | undefined;
}

const discountLabel = `${Math.round(YEARLY_DISCOUNT * 100)}% off`;

export function PricingSection({ kind, onKindChange, signedIn, site }: PricingSectionProps) {
  const [period, setPeriod] = useState<BillingPeriod>('month');
  // A signed-in user's card of the plan they already have says so instead of offering it again.
  const customer = useQuery({ ...customerQuery(), enabled: signedIn });
  const currentPlan = signedIn && customer.data ? (customer.data.subscriptions.data[0]?.plan ?? 'STARTER') : null;
  return (
    <section id={landingAnchors.pricing} aria-labelledby="pricing-title" className={classes.section}>
      <Container size="xl">
        <div className={classes.intro}>
          <Text className={classes.eyebrow}>Pricing</Text>
          <Title order={2} id="pricing-title" className={classes.title}>
            Plans that grow with your project
          </Title>
          <Text c="dimmed" size="lg">
            Start free, pick a fixed plan when you go live, or pay only for the requests you use.
          </Text>
        </div>
        {/* #pay-as-you-go lands here, so the toggle stays in view above the card it selects. */}
        <div className={classes.toggles} id={landingAnchors.payAsYouGo}>
          <SegmentedToggle<PlanKind>
            label="Plan type"
            name="plan-kind"
            value={kind}
            onChange={onKindChange}
            options={[
              { value: 'fixed', label: 'Fixed Plans' },
              {
                value: 'payg',
                label: (
                  <>
                    Pay As You Go
                    <Badge size="xs" variant="filled" color="teal.9">
                      New
                    </Badge>
                  </>
                ),
              },
            ]}
          />
          {kind === 'fixed' && (
            <SegmentedToggle<BillingPeriod>
              label="Billing period"
              name="billing-period"
              value={period}
              onChange={setPeriod}
              options={[
                { value: 'month', label: 'Monthly' },
                {
                  value: 'year',
                  label: (
                    <>
                      Yearly
                      <Badge size="xs" variant="filled" color="teal.9">
                        {discountLabel}
                      </Badge>
                    </>
                  ),
                },
              ]}
            />
          )}
        </div>
        {kind === 'fixed' ? (
          <PlansGrid>
            {planNames.map((name) => (
              <PlanCard key={name} plan={plans[name]} period={period} signedIn={signedIn} site={site} current={currentPlan === name} />
            ))}
          </PlansGrid>
        ) : (
          <PayAsYouGoCard signedIn={signedIn} />
        )}
        <Text ta="center" size="sm" c="dimmed" mt="xl">
          Prices in EUR. Every plan covers Cardano mainnet, preprod, preview and private devnets, IPFS and Secure Webhooks.
        </Text>
      </Container>
    </section>
  );
}
