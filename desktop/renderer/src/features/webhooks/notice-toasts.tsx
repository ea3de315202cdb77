import { useEffect } from 'react';
import { Anchor, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { EVENTS_PATH, noticeEventName, noticeText, webhookNoticeKinds, webhookPagePath, type WebhookNotice } from '../../../../../shared/webhook-notices';
import { desktopBridge } from '../../lib/desktop';
import { webhookQueries } from './queries';

/**
 * While a dashboard page is open in a browser, the event stream's webhook notices appear as toasts (one per
 * webhook at a time: a newer one replaces it) and the webhook's lists refresh. The desktop app shows native
 * notifications from its main process instead, so it does not toast them twice.
 */
export function WebhookNoticeToasts() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  useEffect(() => {
    if (desktopBridge() !== null || typeof EventSource === 'undefined') return;
    // EventSource reconnects by itself and sends Last-Event-ID, so nothing said while it was away is lost.
    const source = new EventSource(EVENTS_PATH);
    const onNotice = (event: MessageEvent<string>) => {
      let notice: WebhookNotice;
      try {
        notice = JSON.parse(event.data) as WebhookNotice;
      } catch {
        return;
      }
      const { title, message } = noticeText(notice);
      const id = `webhook-notice-${notice.webhookId}`;
      notifications.hide(id);
      notifications.show({
        id,
        color: notice.kind === 'delivery_failed' ? 'orange' : 'red',
        title,
        autoClose: 12_000,
        message: (
          <Stack gap={4}>
            <Text size="sm">{message}</Text>
            {/* Toasts render outside the router, so the link navigates through the hook's navigate. */}
            <Anchor
              href={webhookPagePath(notice)}
              size="sm"
              onClick={(e) => {
                e.preventDefault();
                notifications.hide(id);
                navigate(webhookPagePath(notice));
              }}
            >
              Open the delivery history
            </Anchor>
          </Stack>
        ),
      });
      void queryClient.invalidateQueries({ queryKey: webhookQueries.workspace(notice.workspaceId) });
    };
    for (const kind of webhookNoticeKinds) source.addEventListener(noticeEventName(kind), onNotice);
    return () => source.close();
  }, [queryClient, navigate]);
  return null;
}
