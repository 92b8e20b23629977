import { ActionIcon, Alert, Badge, Box, Button, Group, Stack, Text, UnstyledButton } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import {
  NOTIFICATION_EVENT,
  type NotificationEvent,
  type NotificationItem,
  type NotificationsAnswer,
  notificationKeys,
  unreadCount,
  useMarkRead,
  useNotifications,
} from '../../api/notifications';
import { connectSocket, getSocket, useResync } from '../../api/socket';
import { useTranslation } from '../../i18n';
import { formatDate } from '../../lib/dates';
import { NativeDialog } from '../native-dialog';
import { BellIcon } from './header-icons';

/**
 * The bell of a signed-in buyer: the unread count, and a sheet of the alerts (a show went live, is
 * about to start, a seller application was answered). Tapping one marks it read and opens it. The
 * user's own socket room says when it changed (`notification` with the unread count), so the
 * count follows without polling.
 */
export function Bell() {
  const { t } = useTranslation();
  const [isOpen, setOpen] = useState(false);
  const notifications = useNotifications(true);
  useBellUpdates();
  const unread = unreadCount(notifications.data);
  return (
    <>
      <ActionIcon
        variant="subtle"
        color="dark"
        size="lg"
        radius="xl"
        pos="relative"
        aria-label={unread > 0 ? t('bell.labelUnread', { count: unread }) : t('bell.label')}
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
        data-testid="bell"
      >
        <BellIcon size={22} />
        {unread > 0 && (
          <Badge
            component="span"
            size="xs"
            circle={unread < 10}
            color="red.8"
            pos="absolute"
            top={0}
            right={-2}
            style={{ pointerEvents: 'none' }}
            aria-hidden="true"
            data-testid="bell-count"
          >
            {unread > 99 ? '99+' : unread}
          </Badge>
        )}
      </ActionIcon>
      {isOpen && (
        <NativeDialog title={t('bell.title')} size="sheet" closable onClose={() => setOpen(false)}>
          <BellList onOpened={() => setOpen(false)} />
        </NativeDialog>
      )}
    </>
  );
}

/** Connects the page's socket (the user's room comes with it) and refetches on `notification` and after a reconnection. */
function useBellUpdates(): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    const socket = getSocket();
    const refetch = (payload: unknown) => {
      // The badge follows at once; the list is read again for the new rows.
      const unread = (payload as Partial<NotificationEvent> | undefined)?.unread;
      if (typeof unread === 'number') queryClient.setQueryData<NotificationsAnswer>(notificationKeys.list(), (old) => (old ? { ...old, unread } : old));
      void queryClient.invalidateQueries({ queryKey: notificationKeys.all });
    };
    socket.on(NOTIFICATION_EVENT, refetch);
    connectSocket();
    return () => {
      socket.off(NOTIFICATION_EVENT, refetch);
    };
  }, [queryClient]);
  useResync(() => void queryClient.invalidateQueries({ queryKey: notificationKeys.all }));
}

function BellList({ onOpened }: { onOpened: () => void }) {
  const { t } = useTranslation();
  const notifications = useNotifications(true);
  const markRead = useMarkRead();
  if (notifications.isError && !notifications.data)
    return (
      <Alert color="red" variant="light" title={t('bell.loadFailed')}>
        <Button variant="light" color="red" size="xs" mt="xs" loading={notifications.isFetching} onClick={() => void notifications.refetch()}>
          {t('bell.retry')}
        </Button>
      </Alert>
    );
  const items = notifications.data?.items ?? [];
  if (notifications.isPending) return <Text c="dimmed">…</Text>;
  if (items.length === 0)
    return (
      <Text c="dimmed" size="sm" data-testid="bell-empty">
        {t('bell.empty')}
      </Text>
    );
  const unreadIds = items.filter((item) => item.readAt === null).map((item) => item.id);
  const open = async (item: NotificationItem) => {
    if (item.readAt === null) await markRead.mutateAsync([item.id]).catch(() => undefined);
    onOpened();
    window.location.assign(item.url);
  };
  return (
    <Stack gap="xs">
      {unreadIds.length > 0 && (
        <Group justify="flex-end">
          <Button variant="subtle" size="compact-sm" onClick={() => markRead.mutate(unreadIds)}>
            {t('bell.markAllRead')}
          </Button>
        </Group>
      )}
      <Stack component="ul" gap={4} m={0} p={0} style={{ listStyle: 'none' }}>
        {items.map((item) => (
          <li key={item.id}>
            <UnstyledButton
              w="100%"
              p="sm"
              bg={item.readAt === null ? 'martillo.0' : undefined}
              style={{ borderRadius: 'var(--mantine-radius-md)' }}
              onClick={() => void open(item)}
              data-testid="bell-item"
              data-unread={item.readAt === null}
            >
              <Group gap="xs" wrap="nowrap" align="flex-start">
                {item.readAt === null ? (
                  <Box w={8} h={8} mt={6} bg="red.8" style={{ borderRadius: '50%', flex: 'none' }} aria-label={t('bell.unreadMark')} role="img" />
                ) : (
                  <Box w={8} style={{ flex: 'none' }} />
                )}
                <Stack gap={0} style={{ minWidth: 0 }}>
                  <Text size="xs" fw={700} c="martillo.9" tt="uppercase">
                    {t(`bell.kinds.${item.kind}`)}
                  </Text>
                  <Text size="sm" fw={item.readAt === null ? 700 : 500}>
                    {item.title}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {formatDate(item.createdAt)}
                  </Text>
                </Stack>
              </Group>
            </UnstyledButton>
          </li>
        ))}
      </Stack>
    </Stack>
  );
}
