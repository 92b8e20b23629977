import { Badge, Button, Card, Divider, Group, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { showShippingLabel } from '../../../domain/after-show.js';
import { formatMoney } from '../../../domain/money.js';
import type { PurchaseBill, PurchaseBillStatus, PurchaseItem } from '../../../domain/purchases.js';
import { CashIcon, ClockIcon } from '../../components/icons';
import { useTranslation } from '../../i18n';
import { formatDate } from '../../lib/dates';
import { VideoReceiptButton } from './video-receipt';

const STATUS_COLOR: Record<PurchaseBillStatus, string> = { toPay: 'orange', processing: 'blue', paid: 'green', expired: 'red', canceled: 'gray' };

function Line({ label, value, strong = false, testId }: { label: ReactNode; value: string; strong?: boolean; testId?: string }) {
  return (
    <Group justify="space-between" gap="sm" wrap="nowrap" align="flex-start">
      <Text size={strong ? 'lg' : 'sm'} fw={strong ? 700 : 400} style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
        {label}
      </Text>
      <Text size={strong ? 'lg' : 'sm'} fw={strong ? 700 : 500} style={{ whiteSpace: 'nowrap' }} data-testid={testId}>
        {value}
      </Text>
    </Group>
  );
}

export function ItemLines({ items }: { items: PurchaseItem[] }) {
  return (
    <Stack gap={6} component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
      {items.map((item) => (
        <Stack component="li" key={item.auctionId} gap={4}>
          <Line label={item.auctionName} value={formatMoney(item.amount)} />
          <VideoReceiptButton auctionId={item.auctionId} name={item.auctionName} />
        </Stack>
      ))}
    </Stack>
  );
}

/** One bill: its lots, shipping, total, status, deadline and, while it can be paid, a big 'Pagar'. */
export function BillCard({ bill, label, note }: { bill: PurchaseBill; label?: string; note?: string }) {
  const { t } = useTranslation();
  const hasShipping = bill.shippingCost > 0 || Boolean(bill.shippingCarrier);
  return (
    <Card withBorder radius="lg" padding="md" component="article" data-testid="purchase-bill" data-status={bill.status}>
      <Stack gap="sm">
        <Group justify="space-between" gap="xs">
          <Text fw={600}>{label ?? t('purchases.bill')}</Text>
          <Badge color={STATUS_COLOR[bill.status]} variant="light" data-testid="bill-status">
            {t(`purchases.status.${bill.status}`)}
          </Badge>
        </Group>
        {note && (
          <Text size="sm" c="dimmed">
            {note}
          </Text>
        )}
        <ItemLines items={bill.items} />
        {hasShipping && (
          <Line
            label={
              showShippingLabel(bill.shippingCarrier) ??
              (bill.shippingCarrier ? t('purchases.shippingWith', { carrier: bill.shippingCarrier }) : t('purchases.shipping'))
            }
            value={formatMoney(bill.shippingCost)}
          />
        )}
        <Divider />
        <Line label={t('purchases.total')} value={formatMoney(bill.grandTotal)} strong testId="bill-total" />
        {bill.status === 'toPay' && bill.deadlineAt !== null && (
          <Group gap={6} wrap="nowrap">
            <ClockIcon aria-hidden="true" style={{ color: 'var(--mantine-color-orange-7)', flexShrink: 0 }} />
            <Text size="sm" fw={600} data-testid="bill-deadline">
              {t('purchases.deadline', { date: formatDate(bill.deadlineAt) })}
            </Text>
          </Group>
        )}
        {bill.status === 'paid' && bill.paidAt !== null && (
          <Text size="sm" c="dimmed">
            {t('purchases.paidOn', { date: formatDate(bill.paidAt) })}
          </Text>
        )}
        {bill.status === 'processing' && (
          <Text size="sm" c="dimmed" data-testid="bill-processing">
            {t('purchases.processingHint')}
          </Text>
        )}
        {bill.status === 'expired' && (
          <Text size="sm" c="dimmed">
            {t('purchases.expiredHint')}
          </Text>
        )}
        {bill.payLink && (
          <Button component="a" href={bill.payLink} size="lg" fullWidth leftSection={<CashIcon />} data-testid="bill-pay">
            {t('purchases.pay')}
          </Button>
        )}
      </Stack>
    </Card>
  );
}
