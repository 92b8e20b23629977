import { Alert, Anchor, Badge, Button, Divider, EmptyState, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { type ReactNode, useMemo } from 'react';
import { formatMoney } from '../../../domain/money.js';
import type { ExpiredBillView } from '../../../domain/unpaid.js';
import { useHubSessions } from '../../api/live-hub';
import { useExpiredBills } from '../../api/unpaid';
import { AlertIcon, ReceiptIcon } from '../../components/icons';
import { Spinner } from '../../components/spinner';
import { useTranslation } from '../../i18n';
import { formatDate } from '../../lib/dates';
import { useErrorText } from '../../lib/use-error-text';
import { lotKey, useExpiredActions } from './expired-actions';
import { ExpiredLot, type ShowOption } from './expired-lot';
import { ExpiredStrikes } from './expired-strikes';

/**
 * "Cuentas vencidas": bills whose deadline passed unpaid, by buyer, with the seller's choice for
 * each lot (Segunda oportunidad, another show, release); late payments that still arrived for a
 * canceled bill ("Pago tardío: reembolsar"); and the buyers with strikes ("Quitar bloqueo").
 */
export function ExpiredSection({ isMobile }: { isMobile: boolean }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const query = useExpiredBills();
  const sessions = useHubSessions();
  const actions = useExpiredActions();

  /** Scheduled shows by company, for "Llevar a otro show". */
  const showsOf = useMemo(() => {
    const byCompany = new Map<string, ShowOption[]>();
    for (const s of sessions.data?.sessions ?? []) {
      if (s.status !== 'scheduled' || s.rehearsal || !s.canEdit) continue;
      const list = byCompany.get(s.companyId) ?? [];
      list.push({ value: s.id, label: `${s.title} · ${formatDate(s.scheduledAt)}` });
      byCompany.set(s.companyId, list);
    }
    return (companyId: string) => byCompany.get(companyId) ?? [];
  }, [sessions.data]);

  const bills = query.data?.bills ?? [];
  const late = query.data?.latePayments ?? [];

  let body: ReactNode;
  if (query.isPending) body = <Spinner size="sm" label={t('common.loading')} />;
  else if (query.error)
    body = (
      <Alert color="red" variant="light" icon={<AlertIcon />} role="alert">
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{t('unpaid.panel.loadError', { reason: errorText(query.error) })}</Text>
          <Button size="xs" variant="light" color="red" onClick={() => void query.refetch()} loading={query.isFetching}>
            {t('common.retry')}
          </Button>
        </Stack>
      </Alert>
    );
  else if (bills.length === 0)
    body = <EmptyState py="md" icon={<ReceiptIcon size={24} />} withIndicatorBackground title={t('unpaid.panel.empty')} data-testid="expired-empty" />;
  else
    body = (
      <Stack gap="sm">
        {bills.map((bill) => (
          <ExpiredBill key={bill.paymentId} bill={bill} shows={showsOf(bill.companyId)} actions={actions} isMobile={isMobile} />
        ))}
      </Stack>
    );

  return (
    <Stack gap="md" component="section" aria-labelledby="billing-expired-title" data-testid="billing-expired">
      <Group justify="space-between" gap="xs" wrap="nowrap">
        <Stack gap={0}>
          <Group gap="xs">
            <Title order={3} size="h4" id="billing-expired-title">
              {t('unpaid.panel.title')}
            </Title>
            {query.data && (
              <Badge variant="light" color="gray">
                {bills.length}
              </Badge>
            )}
          </Group>
          <Text size="xs" c="dimmed">
            {t('unpaid.panel.hint')}
          </Text>
        </Stack>
        {query.isFetching && !query.isPending && <Spinner size="xs" type="dots" label={t('common.loading')} />}
      </Group>

      {late.length > 0 && (
        <Alert color="orange" variant="light" icon={<AlertIcon />} title={t('unpaid.late.title')} data-testid="late-payments">
          <Stack gap="xs">
            <Text size="xs">{t('unpaid.late.hint')}</Text>
            {late.map((p) => (
              <Group key={p.paymentId} gap="xs" wrap="wrap">
                <Badge color="orange" tt="none">
                  {t('unpaid.late.badge')}
                </Badge>
                <Text size="sm">{t('unpaid.late.row', { name: p.winnerName, amount: formatMoney(p.grandTotal) })}</Text>
                {p.mpPaymentId && (
                  <Text size="xs" c="dimmed">
                    {t('unpaid.late.providerId', { id: p.mpPaymentId })}
                  </Text>
                )}
              </Group>
            ))}
          </Stack>
        </Alert>
      )}

      {body}
      <ExpiredStrikes isBusy={actions.isBusy} onLift={(userId) => void actions.liftStrikes(userId)} />
    </Stack>
  );
}

function ExpiredBill({
  bill,
  shows,
  actions,
  isMobile,
}: {
  bill: ExpiredBillView;
  shows: ShowOption[];
  actions: ReturnType<typeof useExpiredActions>;
  isMobile: boolean;
}) {
  const { t } = useTranslation();
  const wa = bill.winnerWhatsapp ? `https://wa.me/${bill.winnerWhatsapp.replace(/\D/g, '')}` : null;
  return (
    <Paper withBorder radius="md" p={isMobile ? 'sm' : 'md'} data-testid={`expired-bill-${bill.paymentId}`}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Stack gap={0}>
            <Text fw={700}>{bill.winnerName}</Text>
            {wa && (
              <Anchor href={wa} target="_blank" rel="noopener noreferrer" size="xs">
                {bill.winnerWhatsapp}
              </Anchor>
            )}
          </Stack>
          <Stack gap={0} align="flex-end">
            <Text size="sm" fw={600}>
              {t('unpaid.panel.total', { amount: formatMoney(bill.grandTotal) })}
            </Text>
            <Text size="xs" c="dimmed">
              {t('unpaid.panel.expiredOn', { date: formatDate(bill.expiredAt) })}
            </Text>
          </Stack>
        </Group>
        <Divider />
        <Stack gap={0} aria-label={t('unpaid.panel.lotsLabel')}>
          {bill.lots.map((lot) => (
            <ExpiredLot
              key={lot.auctionId}
              lot={lot}
              shows={shows}
              isBusy={actions.isBusy(lotKey(bill.paymentId, lot.auctionId))}
              onChoose={(choice) => void actions.choose(bill.paymentId, lot.auctionId, choice)}
            />
          ))}
        </Stack>
      </Stack>
    </Paper>
  );
}
