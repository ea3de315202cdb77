import { useEffect, useState } from 'react';
import { Alert, Anchor, Badge, Box, Button, Code, CopyButton, Group, NumberInput, Paper, SegmentedControl, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router-dom';
import QRCode from 'qrcode';
import { useMediaQuery } from '@mantine/hooks';
import { can, deniedMessages } from '../../../../../shared/permissions';
import { formatEur } from '../../../../../shared/pricing';
import {
  MAX_ORDER_REQUESTS,
  ORDER_PRESETS,
  PRICE_DISPLAY_UNIT,
  formatAda,
  formatRequests,
  isOpenOrder,
  ppuOrderStatusLabels,
  rateAgeText,
  type PpuOrderDto,
  type PpuPricing,
  type PpuOrderStatus,
} from '../../../../../shared/ppu';
import type { WorkspaceDto } from '../../../../../shared/workspaces';
import { errorMessage } from '../../api/client';
import { ErrorView } from '../../components/error-view';
import { PageLayout, type Crumb } from '../../components/page-layout';
import { PageLoader } from '../../components/page-loader';
import { formatDateTime } from '../../lib/format';
import { WithSelectedWorkspace } from '../workspaces/selected-workspace';
import { invalidateQuotas, workspaceQueries } from '../workspaces/queries';
import { ppuQueries, useCreateOrder, useSimulatePayment } from './queries';

const SUBSCRIPTION: Crumb = { label: 'Subscription', to: '/dashboard/subscription' };
const HISTORY: Crumb = { label: 'Pay as you go history', to: '/dashboard/subscription/ppu/history' };
const WORKSPACES: Crumb = { label: 'Workspaces', to: '/dashboard/workspaces' };

const statusColors: Record<PpuOrderStatus, string> = { awaiting_payment: 'blue', confirming: 'orange', paid: 'green', underpaid: 'orange', expired: 'gray' };

export function OrderStatusBadge({ status }: { status: PpuOrderStatus }) {
  return (
    <Badge color={statusColors[status]} variant="light" data-testid="order-status" style={{ flexShrink: 0, overflow: 'visible' }}>
      {ppuOrderStatusLabels[status]}
    </Badge>
  );
}

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

function OrderForm({ workspace, orderPath }: { workspace: WorkspaceDto; orderPath: (id: number) => string }) {
  const navigate = useNavigate();
  const [preset, setPreset] = useState<string>(String(ORDER_PRESETS[0]));
  const [custom, setCustom] = useState<number | string>(ORDER_PRESETS[0]);
  const requests = preset === 'custom' ? Number(custom) : Number(preset);
  const valid = Number.isInteger(requests) && requests > 0 && requests <= MAX_ORDER_REQUESTS;
  const settings = useQuery(ppuQueries.settings());
  const quote = useQuery({ ...ppuQueries.quote(requests), enabled: valid });
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
            <NumberInput label="Number of requests" value={custom} onChange={setCustom} min={1} max={MAX_ORDER_REQUESTS} allowDecimal={false} thousandSeparator="," />
          )}
          <PriceLine pricing={quote.data?.pricing ?? s.pricing} readAt={quote.data ? quote.dataUpdatedAt : settings.dataUpdatedAt} />
          {quote.error && <Alert color="red">{errorMessage(quote.error, 'The price could not be read.')}</Alert>}
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
            title={mayOrder ? undefined : deniedMessages['workspace.payg_new_order']}
            onClick={() => create.mutate(requests, { onSuccess: (order) => navigate(orderPath(order.id)) })}
          >
            Order {valid ? formatRequests(requests) : ''} requests
          </Button>
          {!mayOrder && <Text size="sm" c="dimmed">{deniedMessages['workspace.payg_new_order']}</Text>}
        </Stack>
      </Paper>
      <Anchor component={Link} to="/dashboard/subscription/ppu/history">
        Order history
      </Anchor>
    </Stack>
  );
}

function useNow(intervalMs = 1000) {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(t);
  }, [intervalMs]);
  return now;
}

const timeLeft = (ms: number) => {
  if (ms <= 0) return 'expired';
  const m = Math.floor(ms / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  return `${m}:${String(s).padStart(2, '0')} left`;
};

function PaymentQr({ address, lovelace }: { address: string; lovelace: string }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    // CIP-13 payment URI: wallets that read it fill in the amount too.
    void QRCode.toDataURL(`web+cardano:${address}?amount=${formatAda(lovelace).replace(/[ ,]|ADA/g, '')}`, { margin: 1, width: 220 }).then((url) => live && setSrc(url));
    return () => {
      live = false;
    };
  }, [address, lovelace]);
  return src ? <img src={src} width={220} height={220} alt="QR code of the payment address and amount" /> : <Box w={220} h={220} />;
}

function OrderDetail({ order }: { order: PpuOrderDto }) {
  const now = useNow();
  const simulate = useSimulatePayment(order.id);
  const quota = useQuery(workspaceQueries.quota(order.workspaceId));
  const open = isOpenOrder(order.status);
  const queryClient = useQueryClient();
  // Once the order is credited, every quota shown (balance, banners) is re-read.
  useEffect(() => {
    if (order.status === 'paid' || order.status === 'underpaid') void invalidateQuotas(queryClient);
  }, [order.status, queryClient]);
  return (
    <Stack gap="lg" maw={760}>
      <Group gap="sm">
        <OrderStatusBadge status={order.status} />
        <Text c="dimmed" size="sm">
          {formatRequests(order.requests)} requests for {order.workspaceName}
        </Text>
      </Group>
      <Paper withBorder p="lg" radius="md">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
          <Stack gap="sm" style={{ minWidth: 0 }}>
            <Text size="sm" c="dimmed">
              Send exactly
            </Text>
            <Title order={3} data-testid="order-amount">
              {formatAda(order.lovelace)}
            </Title>
            <Text size="sm" c="dimmed">
              to this {order.network} address
            </Text>
            <Code block style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }} data-testid="order-address">
              {order.address}
            </Code>
            <CopyButton value={order.address}>
              {({ copied, copy }) => (
                <Button variant="light" size="xs" onClick={copy} w="fit-content">
                  {copied ? 'Copied' : 'Copy address'}
                </Button>
              )}
            </CopyButton>
            {order.status === 'awaiting_payment' && (
              <Text size="sm" data-testid="order-time-left">
                Price locked: {timeLeft(order.expiresAt - now)}
              </Text>
            )}
            {order.status === 'confirming' && (
              <Text size="sm">
                Payment seen: {order.confirmations} of {order.requiredConfirmations} confirmations.
              </Text>
            )}
            {order.status === 'expired' && <Text size="sm">Nobody paid this order in time. A payment still arriving is credited at this order's price.</Text>}
            {(order.status === 'paid' || order.status === 'underpaid') && (
              <Text size="sm" data-testid="order-credited">
                Received {formatAda(order.receivedLovelace)}: {formatRequests(order.creditedRequests)} requests credited
                {order.paidAt ? ` on ${formatDateTime(order.paidAt)}` : ''}.
              </Text>
            )}
          </Stack>
          {open || order.status === 'expired' ? <PaymentQr address={order.address} lovelace={order.lovelace} /> : null}
        </SimpleGrid>
      </Paper>
      {order.canSimulate && (
        <Paper withBorder p="md" radius="md">
          <Group justify="space-between">
            <Text size="sm">Development: pay this order with test ada from the sandbox faucet, in the next block.</Text>
            <Button variant="default" loading={simulate.isPending} onClick={() => simulate.mutate()}>
              Simulate payment
            </Button>
          </Group>
          {simulate.error && (
            <Alert color="red" mt="sm">
              {errorMessage(simulate.error, 'The payment could not be simulated.')}
            </Alert>
          )}
        </Paper>
      )}
      {order.txHashes.length > 0 && (
        <Stack gap={4}>
          <Text size="sm" fw={600}>
            Transactions
          </Text>
          {order.txHashes.map((h) => (
            <Code key={h} style={{ wordBreak: 'break-all' }}>
              {h}
            </Code>
          ))}
        </Stack>
      )}
      {quota.data?.ppu.active && (
        <Text data-testid="ppu-balance">
          Balance of {order.workspaceName}: <b>{formatRequests(quota.data.ppu.balance.requests)} requests</b>
        </Text>
      )}
    </Stack>
  );
}

function OrderById({ id }: { id: number }) {
  const order = useQuery({ ...ppuQueries.order(id), enabled: Number.isInteger(id) && id > 0 });
  if (!Number.isInteger(id) || id <= 0) return <Alert color="red">Order not found.</Alert>;
  if (order.isPending) return <PageLoader label="Loading the order…" />;
  if (order.error) return <ErrorView error={order.error} withRefresh />;
  return <OrderDetail order={order.data} />;
}

export function PayAsYouGoOrderPage() {
  return (
    <PageLayout title="Pay as you go" breadcrumbs={[SUBSCRIPTION, { label: 'Pay as you go' }]}>
      <WithSelectedWorkspace missing="Create a workspace to order requests for it.">
        {(workspace) => <OrderForm workspace={workspace} orderPath={(id) => `/dashboard/subscription/ppu/order/${id}`} />}
      </WithSelectedWorkspace>
    </PageLayout>
  );
}

export function PayAsYouGoOrderDetailPage() {
  const { id = '' } = useParams();
  return (
    <PageLayout title={`Order ${id}`} breadcrumbs={[SUBSCRIPTION, HISTORY, { label: 'Order' }]}>
      <OrderById id={Number(id)} />
    </PageLayout>
  );
}

export function PayAsYouGoHistoryPage() {
  const orders = useQuery(ppuQueries.history());
  return (
    <PageLayout title="Pay as you go history" breadcrumbs={[SUBSCRIPTION, { label: 'Pay as you go history' }]}>
      <Stack gap="md">
        <Button component={Link} to="/dashboard/subscription/ppu/order" w="fit-content">
          New order
        </Button>
        {orders.isPending && <PageLoader label="Loading orders…" />}
        {orders.error && <ErrorView error={orders.error} withRefresh />}
        {orders.data && orders.data.length === 0 && <Text c="dimmed">No orders yet.</Text>}
        {orders.data && orders.data.length > 0 && (
          <Table.ScrollContainer minWidth={720}>
            <Table striped>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Order</Table.Th>
                  <Table.Th>Date</Table.Th>
                  <Table.Th>Workspace</Table.Th>
                  <Table.Th>Requests</Table.Th>
                  <Table.Th>Amount</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>Transaction</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {orders.data.map((o) => (
                  <Table.Tr key={o.id}>
                    <Table.Td>
                      <Anchor component={Link} to={`/dashboard/subscription/ppu/order/${o.id}`}>
                        #{o.id}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>{formatDateTime(o.createdAt)}</Table.Td>
                    <Table.Td>{o.workspaceName}</Table.Td>
                    <Table.Td>{formatRequests(o.requests)}</Table.Td>
                    <Table.Td>{formatAda(o.lovelace)}</Table.Td>
                    <Table.Td miw={150}>
                      <OrderStatusBadge status={o.status} />
                    </Table.Td>
                    <Table.Td>
                      <Text size="xs" ff="monospace" style={{ wordBreak: 'break-all' }}>
                        {o.txHashes[0] ?? '—'}
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
    </PageLayout>
  );
}

function useWorkspaceFromPath(): { id: number; workspace: WorkspaceDto | undefined; isPending: boolean; error: unknown } {
  const { id = '' } = useParams();
  const list = useQuery(workspaceQueries.list());
  const n = Number(id);
  return { id: n, workspace: list.data?.find((w) => w.id === n), isPending: list.isPending, error: list.error };
}

export function WorkspaceOrderPage() {
  const { id, workspace, isPending, error } = useWorkspaceFromPath();
  return (
    <PageLayout title="Order" breadcrumbs={[WORKSPACES, { label: workspace?.name ?? 'Workspace', to: `/dashboard/workspaces/${id}` }, { label: 'Order' }]}>
      {isPending ? (
        <PageLoader label="Loading the workspace…" />
      ) : error ? (
        <ErrorView error={error} withRefresh />
      ) : workspace ? (
        <OrderForm workspace={workspace} orderPath={(orderId) => `/dashboard/workspaces/${id}/order/${orderId}`} />
      ) : (
        <Alert color="red">Workspace not found.</Alert>
      )}
    </PageLayout>
  );
}

export function WorkspaceOrderDetailPage() {
  const { id = '', orderId = '' } = useParams();
  return (
    <PageLayout title={`Order ${orderId}`} breadcrumbs={[WORKSPACES, { label: 'Workspace', to: `/dashboard/workspaces/${id}` }, { label: 'Order' }]}>
      <OrderById id={Number(orderId)} />
    </PageLayout>
  );
}
