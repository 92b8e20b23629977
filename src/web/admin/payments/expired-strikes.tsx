import { Alert, Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import type { ReactNode } from 'react';
import type { StruckBuyerView } from '../../../domain/unpaid.js';
import { useStruckBuyers } from '../../api/unpaid';
import { AlertIcon } from '../../components/icons';
import { Spinner } from '../../components/spinner';
import { useTranslation } from '../../i18n';
import { useErrorText } from '../../lib/use-error-text';

/** "Compradores con faltas": each buyer's strikes of the limit, blocked or not, and "Quitar bloqueo" after a question. */
export function ExpiredStrikes({ isBusy, onLift }: { isBusy: (key: string) => boolean; onLift: (userId: string) => void }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const query = useStruckBuyers();

  const ask = (buyer: StruckBuyerView) =>
    modals.openConfirmModal({
      title: t('unpaid.strikes.liftConfirmTitle', { name: buyer.name }),
      centered: true,
      closeOnClickOutside: false,
      children: <Text size="sm">{t('unpaid.strikes.liftConfirm')}</Text>,
      labels: { confirm: t('unpaid.strikes.lift'), cancel: t('unpaid.panel.confirm.cancel') },
      onConfirm: () => onLift(buyer.userId),
    });

  let body: ReactNode;
  if (query.isPending) body = <Spinner size="sm" label={t('common.loading')} />;
  else if (query.error)
    body = (
      <Alert color="red" variant="light" icon={<AlertIcon />} role="alert">
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{t('unpaid.strikes.loadError', { reason: errorText(query.error) })}</Text>
          <Button size="xs" variant="light" color="red" onClick={() => void query.refetch()} loading={query.isFetching}>
            {t('common.retry')}
          </Button>
        </Stack>
      </Alert>
    );
  else if (query.data.buyers.length === 0)
    body = (
      <Text size="sm" c="dimmed" data-testid="struck-buyers-empty">
        {t('unpaid.strikes.empty')}
      </Text>
    );
  else
    body = (
      <Stack gap="xs">
        {query.data.buyers.map((buyer) => (
          <Paper key={`${buyer.companyId}:${buyer.userId}`} withBorder p="sm" radius="md" data-testid={`struck-${buyer.userId}`}>
            <Group justify="space-between" wrap="wrap" gap="xs">
              <Stack gap={2}>
                <Text size="sm" fw={600}>
                  {buyer.name}
                </Text>
                <Group gap="xs">
                  <Text size="xs" c="dimmed">
                    {t('unpaid.strikes.count', { strikes: buyer.strikes, limit: buyer.limit })}
                  </Text>
                  {buyer.blocked && (
                    <Badge color="red" variant="light" tt="none" size="sm">
                      {t('unpaid.strikes.blocked')}
                    </Badge>
                  )}
                </Group>
              </Stack>
              <Button size="xs" variant="light" loading={isBusy(`lift:${buyer.userId}`)} onClick={() => ask(buyer)}>
                {t('unpaid.strikes.lift')}
              </Button>
            </Group>
          </Paper>
        ))}
      </Stack>
    );

  return (
    <Stack gap="xs" component="section" aria-labelledby="struck-buyers-title" data-testid="struck-buyers">
      <Stack gap={0}>
        <Title order={4} size="h5" id="struck-buyers-title">
          {t('unpaid.strikes.title')}
        </Title>
        <Text size="xs" c="dimmed">
          {t('unpaid.strikes.hint')}
        </Text>
      </Stack>
      {body}
    </Stack>
  );
}
