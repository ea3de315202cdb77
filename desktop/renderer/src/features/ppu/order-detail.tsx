import { useEffect, useState } from 'react';
import { Alert, Box, Button, Code, CopyButton, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import QRCode from 'qrcode';
import { formatAda, formatRequests, isOpenOrder, type PpuOrderDto } from '../../../../../shared/ppu';
import { errorMessage } from '../../api/client';
import { ErrorView } from '../../components/error-view';
import { PageLoader } from '../../components/page-loader';
import { formatDateTime } from '../../lib/format';
import { invalidateQuotas, workspaceQueries } from '../workspaces/index';
import { ppuQueries, useSimulatePayment } from './queries';
import { OrderStatusBadge } from './order-status-badge';
import { useNow } from './use-now';

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

export function OrderById({ id }: { id: number }) {
  const order = useQuery({ ...ppuQueries.order(id), enabled: Number.isInteger(id) && id > 0 });
  if (!Number.isInteger(id) || id <= 0) return <Alert color="red">Order not found.</Alert>;
  if (order.isPending) return <PageLoader label="Loading the order…" />;
  if (order.error) return <ErrorView error={order.error} withRefresh />;
  return <OrderDetail order={order.data} />;
}
