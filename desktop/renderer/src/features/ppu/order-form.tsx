import { useState } from 'react';
import { Alert, Anchor, Button, Group, NumberInput, Paper, SegmentedControl, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router-dom';
import { useMediaQuery } from '@mantine/hooks';
import { can } from '../../../../../shared/permissions';
import { formatEur } from '../../../../../shared/pricing';
import { MAX_ORDER_REQUESTS, ORDER_PRESETS, PRICE_DISPLAY_UNIT, formatAda, formatRequests, orderQuantityError, rateAgeText, type PpuPricing } from '../../../../../shared/ppu';
import type { WorkspaceDto } from '../../../../../shared/workspaces';
import { errorMessage } from '../../api/client';
import { ErrorView } from '../../components/error-view';
import { PageLoader } from '../../components/page-loader';
import { deniedReason } from '../../components/permission';
import { ppuQueries, useCreateOrder } from './queries';
import { useNow } from './use-now';

/** EUR with enough digits for a price per 100k requests (0.24 EUR at the fallback). */
const eur = (n: number) => `${n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 4 })} EUR`;

/** The unit price per 100k requests and the ADA/EUR rate, with the rate source's reading's age ('rate as of 3 minutes ago'). */
function PriceLine({ pricing, readAt }: { pricing: PpuPricing; readAt: number }) {
  const now = useNow(15_000);
  const origin =
    pricing.source === 'rate_source' && pricing.rate_age_seconds !== null
      ? ` (${pricing.rate_source}, ${rateAgeText(pricing.rate_age_seconds * 1000 + Math.max(0, now - readAt))})`
      : pricing.source === 'fallback'
        ? ' (default prices)'
        : '';
  return (
    <Text size="sm" c="dimmed" data-testid="ppu-unit-price">
      {eur(pricing.requests.price_per_unit_eur * PRICE_DISPLAY_UNIT)} per {formatRequests(PRICE_DISPLAY_UNIT)} requests · 1 ADA = {eur(pricing.ada_eur_rate)}
      {origin}
    </Text>
  );
}

export function OrderForm({ workspace, orderPath }: { workspace: WorkspaceDto; orderPath: (id: number) => string }) {
  const navigate = useNavigate();
  const [preset, setPreset] = useState<string>(String(ORDER_PRESETS[0]));
  const [custom, setCustom] = useState<number | string>(ORDER_PRESETS[0]);
  const requests = preset === 'custom' ? Number(custom) : Number(preset);
  const settings = useQuery(ppuQueries.settings());
  // Out of range says why beside the field, from the prices the page has; the server's own refusal of a quote shows there too.
  const rangeError = settings.data ? orderQuantityError(preset === 'custom' ? custom : requests, settings.data.pricing) : null;
  const valid = Number.isInteger(requests) && requests > 0 && requests <= MAX_ORDER_REQUESTS && rangeError === null;
  const quote = useQuery({ ...ppuQueries.quote(requests), enabled: valid });
  const quantityError = rangeError ?? (quote.error ? errorMessage(quote.error, 'The price could not be read.') : null);
  const create = useCreateOrder(workspace.id);
  const mayOrder = can(workspace.role_name, 'workspace.payg_new_order');
  // Five choices do not fit side by side on a phone.
  const narrow = useMediaQuery('(max-width: 36em)');
  if (settings.isPending) return <PageLoader label="Loading prices…" />;
  if (settings.error) return <ErrorView error={settings.error} withRefresh />;
  const s = settings.data;
  return (
    <Stack gap="lg" maw={640}>
      <Text c="dimmed">
        Buy requests for the workspace <b>{workspace.name}</b> with ADA: no commitment, usage-based pricing, and the requests never expire. Its projects
        use them once the plan's daily quota is used up.
      </Text>
      {!s.enabled && <Alert color="orange">Pay as you go is not available on this server: the operator has not configured a payment account.</Alert>}
      {s.devAccount && (
        <Alert color="yellow" title="Development payment account">
          Orders are paid to addresses of a published test key on the {s.network} sandbox chain. Use test ada only.
        </Alert>
      )}
      <Paper withBorder p="lg" radius="md">
        <Stack gap="md">
          <Text fw={600}>Requests</Text>
          <SegmentedControl
            aria-label="Requests"
            value={preset}
            onChange={setPreset}
            data={[...ORDER_PRESETS.map((n) => ({ value: String(n), label: formatRequests(n) })), { value: 'custom', label: 'Other' }]}
            fullWidth
            orientation={narrow ? 'vertical' : 'horizontal'}
          />
          {preset === 'custom' && (
            <NumberInput
              label="Number of requests"
              value={custom}
              onChange={setCustom}
              min={1}
              max={MAX_ORDER_REQUESTS}
              clampBehavior="none"
              allowDecimal={false}
              allowNegative={false}
              thousandSeparator=","
              error={quantityError}
            />
          )}
          {preset !== 'custom' && quantityError && (
            <Text size="sm" c="red" role="alert">
              {quantityError}
            </Text>
          )}
          <PriceLine pricing={quote.data?.pricing ?? s.pricing} readAt={quote.data ? quote.dataUpdatedAt : settings.dataUpdatedAt} />
          {quote.data && (
            <Group justify="space-between" data-testid="ppu-quote">
              <Text>Total</Text>
              <Text fw={700}>
                {formatAda(quote.data.total_lovelace)} <Text span c="dimmed">({formatEur(Math.round(quote.data.total_eur * 100))})</Text>
              </Text>
            </Group>
          )}
          {create.error && <Alert color="red">{errorMessage(create.error, 'The order could not be placed.')}</Alert>}
          <Button
            disabled={!valid || !quote.data || !mayOrder || !s.enabled}
            loading={create.isPending}
            title={deniedReason(workspace.role_name, 'workspace.payg_new_order') ?? undefined}
            onClick={() => create.mutate(requests, { onSuccess: (order) => navigate(orderPath(order.id)) })}
          >
            Order {valid ? formatRequests(requests) : ''} requests
          </Button>
          {!mayOrder && <Text size="sm" c="dimmed">{deniedReason(workspace.role_name, 'workspace.payg_new_order')}</Text>}
        </Stack>
      </Paper>
      <Anchor component={Link} to="/dashboard/subscription/ppu/history">
        Order history
      </Anchor>
    </Stack>
  );
}
