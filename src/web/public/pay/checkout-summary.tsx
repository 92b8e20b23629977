import { Card, Divider, Group, Skeleton, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import type { ReactNode } from 'react';
import { showShippingLabel } from '../../../domain/after-show.js';
import { formatMoney } from '../../../domain/money.js';
import type { CheckoutView } from '../../../domain/payments.js';
import { useTranslation } from '../../i18n';
import { VideoReceiptButton } from '../purchases/video-receipt';

function Line({ label, value, strong = false }: { label: ReactNode; value: string; strong?: boolean }) {
  return (
    <Group justify="space-between" gap="sm" wrap="nowrap" align="flex-start">
      <Text size={strong ? 'lg' : 'sm'} fw={strong ? 700 : 400} style={{ minWidth: 0 }}>
        {label}
      </Text>
      <Text size={strong ? 'lg' : 'sm'} fw={strong ? 700 : 500} style={{ whiteSpace: 'nowrap' }} data-testid={strong ? 'checkout-total' : undefined}>
        {value}
      </Text>
    </Group>
  );
}

/** What the buyer is asked to pay: who sells, each item, shipping and the total in MXN. */
export function CheckoutSummary({ checkout }: { checkout: CheckoutView }) {
  const { t } = useTranslation();
  const hasShipping = checkout.shippingCost > 0 || Boolean(checkout.shippingCarrier);
  return (
    <Card withBorder radius="lg" padding="lg" component="section" aria-labelledby="checkout-summary-title">
      <Stack gap="sm">
        <Stack gap={2}>
          <Title order={2} size="h4" id="checkout-summary-title">
            {t('checkout.summaryTitle')}
          </Title>
          {checkout.companyName && (
            <Text size="sm" c="dimmed">
              {t('checkout.seller', { name: checkout.companyName })}
            </Text>
          )}
          <Text size="sm" c="dimmed">
            {t('checkout.buyer', { name: checkout.winnerName })}
          </Text>
        </Stack>
        <Divider />
        <Stack gap={6} component="ul" m={0} p={0} style={{ listStyle: 'none' }} aria-label={t('checkout.items')}>
          {checkout.wonItems.map((item) => (
            <Stack component="li" key={item.auctionId} gap={4}>
              <Line label={item.auctionName} value={formatMoney(item.amount)} />
              <VideoReceiptButton auctionId={item.auctionId} name={item.auctionName} />
            </Stack>
          ))}
        </Stack>
        <Divider variant="dashed" />
        <Line label={t('checkout.subtotal')} value={formatMoney(checkout.totalAmount)} />
        {hasShipping && (
          <Line
            label={
              showShippingLabel(checkout.shippingCarrier) ??
              (checkout.shippingCarrier ? t('checkout.shippingWith', { carrier: checkout.shippingCarrier }) : t('checkout.shipping'))
            }
            value={formatMoney(checkout.shippingCost)}
          />
        )}
        <Divider />
        <Line label={t('checkout.total')} value={formatMoney(checkout.grandTotal)} strong />
      </Stack>
    </Card>
  );
}

export function CheckoutSkeleton() {
  const { t } = useTranslation();
  return (
    <Stack gap="md" role="status" aria-live="polite">
      <VisuallyHidden>{t('checkout.loading')}</VisuallyHidden>
      <Skeleton h={28} w="60%" />
      <Card withBorder radius="lg" padding="lg">
        <Stack gap="sm">
          <Skeleton h={16} w="40%" />
          <Skeleton h={14} />
          <Skeleton h={14} />
          <Skeleton h={22} w="50%" ml="auto" />
        </Stack>
      </Card>
      <Skeleton h={48} radius="md" />
      <Skeleton h={40} radius="md" />
    </Stack>
  );
}
