import { Button, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import { PAY_AS_YOU_GO_AVAILABLE } from '../../../../../shared/billing';
import { PageLayout } from '../../components/page-layout';
import { SUBSCRIPTION } from './crumbs';

function CrossroadCard({ title, text, to, action, actionNote, testId }: { title: string; text: string; to: string; action: string; actionNote: string; testId: string }) {
  return (
    <Paper withBorder p="xl" radius="md" data-testid={testId}>
      <Stack gap="sm">
        <Title order={2} size="h3">
          {title}
        </Title>
        <Text c="dimmed">{text}</Text>
        <Stack gap={4} mt="sm">
          <Button component={Link} to={to} w="fit-content">
            {action}
          </Button>
          <Text size="sm" c="dimmed" data-testid={`${testId}-note`}>
            {actionNote}
          </Text>
        </Stack>
      </Stack>
    </Paper>
  );
}

/** The plans crossroad: fixed plans, and pay as you go once that feature exists (shared flag). */
export function SubscriptionPlansPage() {
  return (
    <PageLayout title="Subscription plans" breadcrumbs={[SUBSCRIPTION, { label: 'Subscription plans' }]}>
      <SimpleGrid cols={{ base: 1, sm: PAY_AS_YOU_GO_AVAILABLE ? 2 : 1 }} spacing="lg" maw={PAY_AS_YOU_GO_AVAILABLE ? undefined : 560}>
        <CrossroadCard
          testId="crossroad-fixed"
          title="Fixed plans"
          text="A monthly or yearly plan with a daily request limit, projects, webhooks and workspaces. Yearly plans are 15% off."
          to="/dashboard/subscription/plans/fixed"
          action="See fixed plans"
          actionNote="Compares the plans; choosing one opens its checkout."
        />
        {PAY_AS_YOU_GO_AVAILABLE && (
          <CrossroadCard
            testId="crossroad-payg"
            title="Pay as you go"
            text="No commitment: buy requests with ADA and use them whenever you like. They never expire."
            to="/dashboard/subscription/ppu/order"
            action="Start Building"
            actionNote="Opens an order for this workspace: choose how many requests, then pay the order in ADA. Nothing is charged until you pay."
          />
        )}
      </SimpleGrid>
    </PageLayout>
  );
}
