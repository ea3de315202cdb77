import { Badge, Button, Paper, Text, Title } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import { AppLink as Link } from '../../lib/nav';
import {
  PAYG_FALLBACK_ADA_PER_REQUEST,
  PAYG_FALLBACK_EUR_PER_REQUEST,
  formatEurAmount,
  paygFeatures,
  pricePerDisplayUnit,
} from '../../../../../shared/pricing';
import { payAsYouGoTarget } from './targets';
import classes from './pricing.module.css';

const eurPer100k = pricePerDisplayUnit(PAYG_FALLBACK_EUR_PER_REQUEST);
const adaPer100k = pricePerDisplayUnit(PAYG_FALLBACK_ADA_PER_REQUEST);

/** The Pay As You Go offer: its five features and the price per 100k requests, in EUR and ADA. */
export function PayAsYouGoCard({ signedIn }: { signedIn: boolean }) {
  return (
    <Paper
      component="article"
      withBorder
      radius="lg"
      className={classes.paygCard}
      aria-labelledby="payg-title"
    >
      <div className={classes.paygMain}>
        <Badge variant="filled" color="teal.9" size="md">
          New
        </Badge>
        <Title order={3} id="payg-title" mt="sm">
          Pay As You Go
        </Title>
        <Text c="dimmed" mt="xs">
          Buy requests when you need them and pay in ADA. No subscription, no monthly limit to outgrow: what you buy stays
          yours until you use it.
        </Text>
        <div className={classes.priceRow}>
          <span className={classes.price} data-testid="payg-price-eur">
            {formatEurAmount(eurPer100k)}
          </span>
          <span className={classes.pricePeriod}>/ 100k requests</span>
        </div>
        <Text size="sm" c="dimmed" data-testid="payg-price-ada">
          or {adaPer100k} ADA per 100k requests
        </Text>
        <Button component={Link} to={payAsYouGoTarget(signedIn)} size="md" mt="lg" data-testid="payg-button">
          Start Building
        </Button>
      </div>
      <div className={classes.paygSide}>
        <Text fw={600} mb="sm">
          Everything included
        </Text>
        <ul className={classes.featureList} aria-label="Pay As You Go includes">
          {paygFeatures.map((feature) => (
            <li key={feature}>
              <IconCheck size={18} aria-hidden className={classes.check} />
              <span>{feature}</span>
            </li>
          ))}
        </ul>
      </div>
    </Paper>
  );
}
