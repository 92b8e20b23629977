import { Anchor, Badge, Button, Group, Skeleton, Stack, Text, Title, Tooltip } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { useRef, useState } from 'react';
import { fetchMpConnectUrl, useMpStatus } from '../../api/payments';
import { CashIcon } from '../../components/icons';
import { RetryIcon } from '../../components/panel-icons';
import { useTranslation } from '../../i18n';
import { openBlankTab, openInNewTab } from '../../lib/browser';
import { connectFailure, connectUrl, mpBadge } from './mp-rules';

/**
 * SPEC §2 payment-provider section: the Mercado Pago connection's badge (user id in the tooltip),
 * connect or re-link (asking first, SPEC §5), and 'Actualizar estado'.
 */
export function MpConnection() {
  const { t } = useTranslation();
  const status = useMpStatus();
  const [isConnecting, setConnecting] = useState(false);
  const inFlight = useRef(false);
  const isAsking = useRef(false);
  const titleId = 'mp-connection-title';

  const showError = (message: string) => notifications.show({ color: 'red', message, autoClose: 10_000 });

  const connect = async () => {
    if (inFlight.current) return;
    inFlight.current = true;
    setConnecting(true);
    // Opened inside the click: a tab opened after the request would meet the pop-up blocker.
    const tab = openBlankTab();
    try {
      const url = connectUrl(await fetchMpConnectUrl(), window.location.origin);
      if (!url) {
        tab?.close();
        showError(t('payments.mp.errors.noUrl'));
        return;
      }
      if (tab && !tab.closed) tab.location.href = url;
      else if (!openInNewTab(url)) {
        notifications.show({
          color: 'yellow',
          autoClose: false,
          message: (
            <Anchor href={url} target="_blank" rel="noopener noreferrer" fw={600}>
              {t('payments.mp.openAuthorization')}
            </Anchor>
          ),
        });
        return;
      }
      notifications.show({ color: 'blue', message: t('payments.mp.opened') });
    } catch (error) {
      tab?.close();
      const failure = connectFailure(error);
      if (failure.kind === 'status') showError(t('payments.mp.errors.startFailed', { status: failure.status, body: failure.body }));
      else showError(t('payments.mp.errors.connectFailed', { message: failure.kind === 'network' ? t('common.networkError') : failure.message }));
    } finally {
      inFlight.current = false;
      setConnecting(false);
    }
  };

  const onConnect = () => {
    if (!status.data?.connected) {
      void connect();
      return;
    }
    // One question at a time, however fast the clicks come.
    if (isAsking.current || inFlight.current) return;
    isAsking.current = true;
    modals.openConfirmModal({
      title: t('payments.mp.relinkTitle'),
      centered: true,
      closeOnClickOutside: false,
      children: <Text size="sm">{t('payments.mp.relinkQuestion')}</Text>,
      labels: { confirm: t('payments.mp.relinkConfirm'), cancel: t('payments.mp.cancel') },
      onConfirm: () => void connect(),
      onClose: () => {
        isAsking.current = false;
      },
    });
  };

  const refresh = async () => {
    const result = await status.refetch();
    // SPEC §8: a refresh failure is only logged.
    if (result.error) console.warn('Mercado Pago status refresh failed', result.error);
  };

  const data = status.data;
  const badge = data ? mpBadge(data) : null;
  const tooltip = data?.userId ? t('payments.mp.userId', { id: data.userId }) : t('payments.mp.noUserId');

  return (
    <Stack gap={6} component="section" aria-labelledby={titleId} data-testid="mp-connection">
      <Group gap={6} px="xs">
        <CashIcon size={16} />
        <Title order={3} size="h6" tt="uppercase" c="dimmed" id={titleId}>
          {t('payments.mp.title')}
        </Title>
      </Group>
      <Group gap="xs" px="xs">
        {status.isPending ? (
          <Skeleton h={20} w={110} radius="xl" />
        ) : badge ? (
          <Tooltip label={tooltip} withinPortal>
            <Badge color={badge.color} variant="light" tabIndex={0} data-testid="mp-status">
              {t(`payments.mp.${badge.label}`)}
            </Badge>
          </Tooltip>
        ) : (
          <Badge color="gray" variant="outline" data-testid="mp-status">
            {t('payments.mp.unknown')}
          </Badge>
        )}
      </Group>
      {data?.provider === 'sandbox' && (
        <Text size="xs" c="dimmed" px="xs">
          {t('payments.mp.sandbox')}
        </Text>
      )}
      <Button variant="light" size="xs" onClick={onConnect} loading={isConnecting} disabled={status.isPending}>
        {data?.connected ? t('payments.mp.relink') : t('payments.mp.connect')}
      </Button>
      <Button
        variant="subtle"
        color="gray"
        size="xs"
        leftSection={<RetryIcon size={14} />}
        onClick={() => void refresh()}
        loading={status.isFetching && !status.isPending}
      >
        {t('payments.mp.refresh')}
      </Button>
    </Stack>
  );
}
