import { Button, Stack, Text } from '@mantine/core';
import type { PaymentView } from '../../../domain/payments.js';
import { useTranslation } from '../../i18n';
import { formatDate } from '../../lib/dates';
import type { BillingColumn } from './billing-list';
import { BillingListSection, type SectionQuery } from './billing-section';
import { ItemsCell, Money, SHORT_DATE_TIME, ShippingCell, WebhookCell, WinnerCell } from './payment-cells';
import { linkActions } from './row-actions';
import type { BillingActions } from './use-billing-actions';
import { busyKey } from './use-in-flight';

interface PendingSectionProps {
  payments: PaymentView[] | null;
  query: SectionQuery;
  searchMiss: string | null;
  isMobile: boolean;
  showCompany: boolean;
  actions: BillingActions;
}

/** 'Pagos en progreso' (SPEC §2): links sent and waiting for the winner; copy, open, resend by WhatsApp, cancel. */
export function PendingSection({ payments, query, searchMiss, isMobile, showCompany, actions }: PendingSectionProps) {
  const { t } = useTranslation();
  const columns: BillingColumn<PaymentView>[] = [
    {
      id: 'winner',
      label: t('payments.columns.winner'),
      render: (p) => <WinnerCell name={p.winnerName} whatsapp={p.winnerWhatsapp} companyName={showCompany ? p.companyName : null} />,
      miw: 150,
    },
    { id: 'items', label: t('payments.columns.items'), render: (p) => <ItemsCell items={p.wonItems} />, miw: 190, isWide: true },
    { id: 'shipping', label: t('payments.columns.shipping'), render: (p) => <ShippingCell carrier={p.shippingCarrier} cost={p.shippingCost} /> },
    { id: 'grandTotal', label: t('payments.columns.grandTotal'), render: (p) => <Money amount={p.grandTotal} strong /> },
    {
      id: 'link',
      label: t('payments.columns.link'),
      render: (p) => (
        <Stack gap={2}>
          <WebhookCell payment={p} />
          {p.linkExpiresAt && (
            <Text size="xs" c="dimmed">
              {t('payments.expiresAt', { date: formatDate(p.linkExpiresAt, SHORT_DATE_TIME) })}
            </Text>
          )}
        </Stack>
      ),
    },
  ];

  const rowActions = (p: PaymentView, isCompact: boolean) => {
    const allowed = linkActions(p);
    const isRowBusy = actions.isBusy(busyKey.payment(p.id));
    const size = isCompact ? 'xs' : 'sm';
    const link = p.paymentLink;
    return (
      <>
        {allowed.copyLink && link && (
          <Button size={size} variant="light" onClick={() => actions.copyLink(link, 'linkCopied')}>
            {t('payments.actions.copyLink')}
          </Button>
        )}
        {allowed.openLink && link && (
          <Button size={size} variant="default" component="a" href={link} target="_blank" rel="noopener noreferrer">
            {t('payments.actions.openLink')}
          </Button>
        )}
        {allowed.whatsapp && (
          <Button size={size} color="green" variant="light" onClick={() => actions.sendExistingLink(p)}>
            {t('payments.actions.sendWhatsapp')}
          </Button>
        )}
        {allowed.cancel && (
          <Button size={size} variant="subtle" color="red" onClick={() => actions.requestCancel(p)} loading={isRowBusy}>
            {t('payments.actions.cancel')}
          </Button>
        )}
      </>
    );
  };

  return (
    <BillingListSection
      section="pending"
      rows={payments}
      rowKey={(p) => p.id}
      columns={columns}
      actions={rowActions}
      query={query}
      searchMiss={searchMiss}
      isMobile={isMobile}
      skeletonColumns={6}
      minWidth={900}
    />
  );
}
