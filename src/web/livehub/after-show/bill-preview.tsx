import { Group, Paper, Stack, Text } from '@mantine/core';
import { formatMoney } from '../../../domain/money.js';
import type { ShowBillPreview } from '../../../domain/show-billing.js';
import { useTranslation } from '../../i18n';

/** Who is still to bill, each with the shipping the saved rules give them ('Por definir' before any is saved), included in the total. */
export function BillPreview({ rows }: { rows: ShowBillPreview[] }) {
  const { t } = useTranslation();
  if (rows.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {t('showBilling.preview.empty')}
      </Text>
    );
  }
  return (
    <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label={t('showBilling.preview.title')}>
      {rows.map((row) => (
        <Paper component="li" key={`${row.winnerId}:${row.wonItems[0]?.auctionId ?? ''}`} withBorder p="sm" radius="md">
          <Group justify="space-between" wrap="wrap" gap="xs">
            <Stack gap={2} style={{ minWidth: 0, flex: 1 }}>
              <Text fw={600}>{row.winnerName}</Text>
              <Text size="sm" c="dimmed">
                {t('showBilling.preview.lots', { count: row.wonItems.length })} · {row.wonItems.map((i) => i.auctionName).join(', ')}
              </Text>
            </Stack>
            <Stack gap={0} align="flex-end">
              <Text size="sm">
                {t('showBilling.preview.subtotal')}: {formatMoney(row.totalAmount)}
              </Text>
              <Text size="sm">
                {t('showBilling.preview.shipping')}:{' '}
                {row.shippingCarrier === null
                  ? t('showBilling.preview.noShipping')
                  : row.shippingCost > 0
                    ? formatMoney(row.shippingCost)
                    : t('showBilling.preview.free')}
              </Text>
              <Text fw={700}>
                {t('showBilling.preview.total')}:{' '}
                {row.shippingCarrier === null
                  ? t('showBilling.preview.totalPlusShipping', { amount: formatMoney(row.totalAmount) })
                  : formatMoney(row.grandTotal)}
              </Text>
            </Stack>
          </Group>
        </Paper>
      ))}
    </Stack>
  );
}
