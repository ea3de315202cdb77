import { useId, useState } from 'react';
import { Badge, Box, Button, Code, Collapse, Group, Loader, Paper, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconChevronDown, IconChevronRight, IconRefresh, IconSend } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { triggerLabels, type WebhookAttemptDto, type WebhookDto, type WebhookEventDto } from '../../../../../shared/webhooks';
import { apiErrorText } from '../../api/client';
import { DataList } from '../../components/data-list';
import { ReasonTooltip } from '../../components/reason-tooltip';
import { formatDateTime, formatNumber } from '../../lib/format';
import { useResendEvent, useSendTestEvent, webhookQueries } from './queries';
import classes from './webhooks.module.css';

// Attempts of one event are often seconds apart: show the seconds.
const attemptTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

const statusBadge: Record<WebhookEventDto['status'], { label: string; color: string }> = {
  pending: { label: 'Pending', color: 'blue' },
  delivered: { label: 'Delivered', color: 'green' },
  failed: { label: 'Failed', color: 'red' },
  cancelled: { label: 'Cancelled', color: 'gray' },
};

interface DeliveryHistoryProps {
  webhook: WebhookDto;
  /** Why test events and resends are not possible for this member; null when they are. */
  deniedReason: string | null;
}

/** Every event sent (or waiting to be sent) to the webhook, newest first, with each delivery attempt. */
export function DeliveryHistory({ webhook, deniedReason }: DeliveryHistoryProps) {
  const [page, setPage] = useState(1);
  const events = useQuery(webhookQueries.events(webhook.workspace_id, webhook.id, page));
  const sendTest = useSendTestEvent(webhook.workspace_id, webhook.id);
  const testReason = deniedReason ?? (webhook.status === 'enabled' ? null : 'Enable the webhook and save it to send it a test event.');

  const onSendTest = () =>
    sendTest.mutate(undefined, {
      onSuccess: () => {
        setPage(1);
        notifications.show({ color: 'green', title: 'Test event sent', message: 'It appears in the delivery history below; Cairn delivers it in a moment.' });
      },
      onError: (error) =>
        notifications.show({ color: 'red', title: 'Test event not sent', message: apiErrorText(error) ?? 'The test event could not be sent. Please try again.' }),
    });

  const titleId = useId();
  const data = events.data;
  return (
    <Paper withBorder p={{ base: 'sm', xs: 'md' }} component="section" aria-labelledby={titleId} className={classes.wrap}>
      <Stack gap="md">
        <Group justify="space-between" gap="sm">
          <Group gap="xs">
            <Title order={2} size="h4" id={titleId}>
              Delivery history
            </Title>
            {events.isFetching && !events.isPending && <Loader size="xs" role="img" aria-label="Refreshing the delivery history" />}
          </Group>
          <ReasonTooltip reason={testReason}>
            <Button leftSection={<IconSend size={16} aria-hidden />} onClick={onSendTest} loading={sendTest.isPending} disabled={!!testReason}>
              Send test event
            </Button>
          </ReasonTooltip>
        </Group>
        {data && data.events.length > 0 && (
          <Text size="sm" c="dimmed">
            {formatNumber(data.total)} event{data.total === 1 ? '' : 's'}
            {data.events.some((e) => e.status === 'pending') ? ' · refreshing while events wait to be sent' : ''}
          </Text>
        )}
        <DataList<WebhookEventDto>
          records={data?.events}
          error={events.error}
          label="Events"
          loadingLabel="Loading the delivery history…"
          loaderMinHeight={80}
          empty={
            <Text size="sm" c="dimmed">
              No events yet. They appear here once the chain produces a {triggerLabels[webhook.type].toLowerCase()} that meets the conditions, or when you
              send a test event.
            </Text>
          }
          card={(event) => <EventItem webhook={webhook} event={event} deniedReason={deniedReason} />}
          {...(data ? { paging: { kind: 'pages', page: data.page, totalPages: data.pages, onChange: setPage, label: 'Delivery history pages' } as const } : {})}
        />
      </Stack>
    </Paper>
  );
}

function EventItem({ webhook, event, deniedReason }: { webhook: WebhookDto; event: WebhookEventDto; deniedReason: string | null }) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const resend = useResendEvent(webhook.workspace_id, webhook.id);
  const status = statusBadge[event.status];
  const resendReason = deniedReason ?? (event.status === 'pending' ? 'This event is already waiting to be sent.' : null);
  const attempts = event.attempts.length;
  const last = event.attempts.at(-1);

  const onResend = () =>
    resend.mutate(event.id, {
      onSuccess: () => notifications.show({ color: 'green', title: 'Event queued again', message: 'Cairn sends it again with the same event id.' }),
      onError: (error) =>
        notifications.show({ color: 'red', title: 'Event not resent', message: apiErrorText(error) ?? 'The event could not be resent. Please try again.' }),
    });

  return (
    <Paper component="article" withBorder p="sm" radius="sm" aria-label={`${triggerLabels[event.type]} event of ${formatDateTime(event.created * 1000)}`}>
      <Group justify="space-between" gap="sm" wrap="nowrap" align="flex-start">
        <UnstyledButton onClick={() => setOpen((o) => !o)} aria-expanded={open} aria-controls={panelId} style={{ flex: 1, minWidth: 0 }}>
          <Group gap="xs" wrap="nowrap" align="flex-start">
            <Box pt={2} c="dimmed">
              {open ? <IconChevronDown size={16} aria-hidden /> : <IconChevronRight size={16} aria-hidden />}
            </Box>
            <Stack gap={4} style={{ minWidth: 0 }}>
              <Group gap={6}>
                <Text fw={600} size="sm">
                  {triggerLabels[event.type]}
                </Text>
                <Badge size="sm" variant="light" color={status.color}>
                  {status.label}
                </Badge>
                {event.test && (
                  <Badge size="sm" variant="outline" color="violet">
                    Test
                  </Badge>
                )}
              </Group>
              <Text size="xs" c="dimmed" className={classes.wrap}>
                {formatDateTime(event.created * 1000)}
                {event.block_height !== null ? ` · Block ${formatNumber(event.block_height)}` : ''} · {attempts} attempt{attempts === 1 ? '' : 's'}
                {last ? ` · last ${last.status_code !== null ? `HTTP ${last.status_code}` : 'without a response'}` : ''}
              </Text>
            </Stack>
          </Group>
        </UnstyledButton>
        <ReasonTooltip reason={resendReason}>
          <Button size="xs" variant="light" leftSection={<IconRefresh size={14} aria-hidden />} onClick={onResend} loading={resend.isPending} disabled={!!resendReason}>
            Resend
          </Button>
        </ReasonTooltip>
      </Group>
      <Collapse expanded={open} id={panelId}>
        <Box pt="sm" pl={{ base: 0, xs: 'lg' }}>
          <Text size="xs" c="dimmed" mb={6} className={classes.wrap}>
            Event id <Code>{event.id}</Code>
            {event.block_hash ? (
              <>
                {' '}
                · block <Code>{event.block_hash}</Code>
              </>
            ) : null}
          </Text>
          {attempts === 0 ? (
            <Text size="sm" c="dimmed">
              Not attempted yet.
            </Text>
          ) : (
            <Stack component="ol" gap="xs" className={classes.plainList} aria-label="Delivery attempts">
              {event.attempts.map((attempt, i) => (
                <AttemptItem key={i} attempt={attempt} />
              ))}
            </Stack>
          )}
          {event.next_attempt_at !== null && (
            <Text size="xs" mt={6} data-testid="next-attempt">
              {attempts === 0 ? 'First attempt' : 'Next retry'} {event.next_attempt_at <= Date.now() ? 'due now' : `at ${attemptTime.format(new Date(event.next_attempt_at))}`}
            </Text>
          )}
          <Text size="xs" c="dimmed" mt="sm" mb={4}>
            Body sent (the same on every attempt; signed in the Blockfrost-Signature header)
          </Text>
          <Code block className={classes.preview} style={{ maxHeight: '12rem' }} data-testid="event-body">
            {event.body}
          </Code>
        </Box>
      </Collapse>
    </Paper>
  );
}

function AttemptItem({ attempt }: { attempt: WebhookAttemptDto }) {
  return (
    <Box component="li" className={classes.wrap}>
      <Group gap="xs">
        <Badge size="sm" variant="light" color={attempt.success ? 'green' : 'red'}>
          {attempt.status_code !== null ? `HTTP ${attempt.status_code}` : 'No response'}
        </Badge>
        <Text size="xs">{attemptTime.format(new Date(attempt.attempted_at))}</Text>
        <Text size="xs" c="dimmed">
          {formatNumber(attempt.duration_ms)} ms
        </Text>
      </Group>
      {attempt.error && (
        <Text size="xs" c="red.8" mt={4}>
          {attempt.error}
        </Text>
      )}
      {attempt.response_excerpt && (
        <Code block mt={4} className={classes.preview} style={{ maxHeight: '8rem' }}>
          {attempt.response_excerpt}
        </Code>
      )}
    </Box>
  );
}
