import { Badge, Button, Paper, Text, Title } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import { AppLink as Link } from '../../lib/nav';
import { yearlySavings, type Plan, type PlanName } from '../../../../../shared/plans';
import { formatCount, formatEur, monthlyRequestsText, storageText } from '../../../../../shared/pricing';
import type { SiteInfo } from '../../../../../shared/site';
import { enterpriseContact, fixedPlanTarget, SUBSCRIPTION_PATH } from './targets';
import classes from './pricing.module.css';

export type BillingPeriod = 'month' | 'year';

export const planTitles: Record<PlanName, string> = {
  STARTER: 'Starter',
  HOBBY: 'Hobby',
  DEVELOPER: 'Developer',
  ENTERPRISE: 'Enterprise',
};

const planPitches: Record<PlanName, string> = {
  STARTER: 'Explore the API and build a prototype.',
  HOBBY: 'For side projects and small dApps.',
  DEVELOPER: 'For production apps and small teams.',
  ENTERPRISE: 'For high-traffic services with custom needs.',
};

const plural = (n: number, one: string, many: string) => `${formatCount(n)} ${n === 1 ? one : many}`;

/** What a plan includes, in the order the cards list it. */
export const planFeatures = (plan: Plan): string[] => [
  `${monthlyRequestsText(plan)} requests / month`,
  plural(plan.projectCount, 'project', 'projects'),
  plural(plan.webhookCount, 'webhook', 'webhooks'),
  plural(plan.workspaceCount, 'workspace', 'workspaces'),
  plural(plan.workspaceMembers, 'workspace member', 'workspace members'),
  `${storageText(plan.storageLimit)} IPFS storage`,
  `${storageText(plan.storageLimitFilecoin)} Filecoin storage`,
  `${plan.limitPerSecond} requests / second, burst ${plan.limitBurst}`,
  `${plural(plan.websocketConnections, 'websocket connection', 'websocket connections')} per project`,
];

function PlanPrice({ plan, period }: { plan: Plan; period: BillingPeriod }) {
  const cents = plan.stripePriceId[period].price;
  if (cents === null) {
    return (
      <div className={classes.priceRow}>
        <span className={classes.price}>Custom</span>
        <span className={classes.pricePeriod}>pricing</span>
      </div>
    );
  }
  if (cents === 0) {
    return (
      <div className={classes.priceRow}>
        <span className={classes.price}>Free</span>
        <span className={classes.pricePeriod}>forever</span>
      </div>
    );
  }
  const savings = period === 'year' ? yearlySavings(plan) : null;
  return (
    <div>
      <div className={classes.priceRow}>
        <span className={classes.price} data-testid={`price-${plan.name}`}>
          {formatEur(cents)}
        </span>
        <span className={classes.pricePeriod}>/ {period}</span>
      </div>
      {savings !== null && savings > 0 && (
        <span className={classes.savings} data-testid={`savings-${plan.name}`}>
          Save {formatEur(savings)} per year
        </span>
      )}
    </div>
  );
}

interface PlanCardProps {
  plan: Plan;
  period: BillingPeriod;
  signedIn: boolean;
  site: SiteInfo | undefined;
  /** The signed-in user's subscription is on this plan. */
  current?: boolean;
}

export function PlanCard({ plan, period, signedIn, site, current = false }: PlanCardProps) {
  const title = planTitles[plan.name];
  const featured = plan.name === 'DEVELOPER';
  const contact = plan.name === 'ENTERPRISE' ? enterpriseContact(site) : null;
  return (
    <Paper
      component="article"
      withBorder
      radius="lg"
      p="xl"
      className={classes.planCard}
      data-featured={featured || undefined}
      aria-labelledby={`plan-${plan.name}`}
      data-plan={plan.name}
    >
      <div className={classes.planHead}>
        <Title order={3} id={`plan-${plan.name}`} size="h4">
          {title}
        </Title>
        {current ? (
          <Badge variant="light" color="teal" size="sm" data-testid={`current-plan-${plan.name}`}>
            Current plan
          </Badge>
        ) : (
          featured && (
            <Badge variant="filled" size="sm">
              Recommended
            </Badge>
          )
        )}
      </div>
      <Text size="sm" c="dimmed" mt={4} mih={44}>
        {planPitches[plan.name]}
      </Text>
      <PlanPrice plan={plan} period={period} />
      {current ? (
        <Button component={Link} to={SUBSCRIPTION_PATH} variant="light" fullWidth mt="lg" data-testid={`plan-button-${plan.name}`} aria-label={`Your current plan: ${title}. Manage your subscription`}>
          Your current plan
        </Button>
      ) : plan.name === 'ENTERPRISE' ? (
        <Button
          component="a"
          href={contact?.href ?? '#contact'}
          {...(contact?.newWindow ? { target: '_blank', rel: 'noopener noreferrer' } : {})}
          variant="outline"
          fullWidth
          mt="lg"
          data-testid="plan-button-ENTERPRISE"
        >
          Contact Us
        </Button>
      ) : (
        <Button
          component={Link}
          to={fixedPlanTarget(signedIn, { name: plan.name, period })}
          variant={featured ? 'filled' : 'outline'}
          fullWidth
          mt="lg"
          data-testid={`plan-button-${plan.name}`}
          aria-label={`Get started with ${title}`}
        >
          {plan.name === 'STARTER' ? 'Get Started' : 'Select plan'}
        </Button>
      )}
      <ul className={classes.featureList} aria-label={`${title} includes`}>
        {planFeatures(plan).map((feature) => (
          <li key={feature}>
            <IconCheck size={18} aria-hidden className={classes.check} />
            <span>{feature}</span>
          </li>
        ))}
      </ul>
    </Paper>
  );
}
