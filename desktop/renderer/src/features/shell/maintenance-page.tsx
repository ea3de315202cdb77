import type { ReactNode } from 'react';
import { Anchor, Group, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconTool } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { messages } from '../../../../../shared/messages';
import type { SiteInfo } from '../../../../../shared/site';
import { PageLoader } from '../../components/page-loader';
import { usePageTitle } from '../../components/use-page-title';
import { siteQueries } from '../site/index';

function formatEta(iso: string): string {
  const date = new Date(iso);
  try {
    return new Intl.DateTimeFormat(undefined, { dateStyle: 'long', timeStyle: 'short' }).format(date);
  } catch {
    return date.toUTCString();
  }
}

/** Stands in for the whole dashboard while the operator has switched maintenance mode on. */
function MaintenancePage({ site }: { site: SiteInfo }) {
  usePageTitle(messages.maintenance.title);
  const { eta } = site.maintenance;
  return (
    <Paper withBorder radius="lg" p={{ base: 'lg', sm: 48 }} maw={720} mx="auto" my="xl" role="region" aria-labelledby="maintenance-title">
      <Stack align="center" ta="center" gap="md">
        <ThemeIcon size={64} radius="xl" variant="light" color="orange">
          <IconTool size={34} aria-hidden />
        </ThemeIcon>
        <Title order={1} size="h2" id="maintenance-title">
          {messages.maintenance.title}
        </Title>
        <Text size="lg" maw={520}>
          The dashboard is temporarily unavailable during scheduled maintenance. We are working on it and will be back
          shortly.
        </Text>
        {eta && (
          <Text data-testid="maintenance-eta">
            Estimated completion:{' '}
            <Text span fw={700}>
              <time dateTime={eta}>{formatEta(eta)}</time>
            </Text>
          </Text>
        )}
        <Group gap="lg" justify="center" mt="xs">
          {site.links.status && (
            <Anchor href={site.links.status} target="_blank" rel="noopener noreferrer" fw={600}>
              Status page
            </Anchor>
          )}
          <Anchor href={`mailto:${site.supportEmail}`} fw={600}>
            Contact support
          </Anchor>
        </Group>
      </Stack>
    </Paper>
  );
}

/**
 * Renders the dashboard content, or the maintenance page instead when GET /api/site says maintenance is on.
 * If the flag cannot be read the dashboard stays usable: its own calls then tell whether the server is up.
 */
export function MaintenanceGate({ children }: { children: ReactNode }) {
  const site = useQuery(siteQueries.site());
  if (site.isPending) return <PageLoader />;
  if (site.data?.maintenance.enabled) return <MaintenancePage site={site.data} />;
  return <>{children}</>;
}
