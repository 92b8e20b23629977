import { Badge, Button, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { PaymentView } from '../../../domain/payments.js';
import type { BillingColumn } from './billing-list';
import { BillingListSection, type SectionQuery } from './billing-section';
import { BADGE_STYLE, DateCell, ItemsCell, Money, PaymentIdCell, ShippingCell, StatusCell, WinnerCell } from './payment-cells';
import { type BillingRole, payoutView } from './payment-rules';
import type { BillingActions } from './use-billing-actions';
import { busyKey } from './use-in-flight';

interface PaidSectionProps {
  payments: PaymentView[] | null;
  query: SectionQuery;
  searchMiss: string | null;
  isMobile: boolean;
  role: BillingRole;
  actions: BillingActions;
}

/** The payout column: text for what already happened, or the one button this role may press (SPEC §4). */
function PayoutCell({ payment, role, actions, isCompact }: { payment: PaymentView; role: BillingRole; actions: BillingActions; isCompact: boolean }) {
  const { t } = useTranslation();
  const view = payoutView(payment, role);
  if (view.kind === 'none') return <Text size="sm">—</Text>;
  if (view.kind === 'direct') {
    return (
      <Badge variant="light" color="gray" style={BADGE_STYLE}>
        {t('payments.payout.direct')}
      </Badge>
    );
  }
  if (view.kind === 'text') {
    return (
      <Badge variant="light" color={view.status === 'paid_out' ? 'green' : 'blue'} style={BADGE_STYLE}>
        {t(`payments.payout.${view.status}`)}
      </Badge>
    );
  }
  const isBusy = actions.isBusy(busyKey.payment(payment.id));
  const size = isCompact ? 'xs' : 'sm';
  return view.action === 'markPaidOut' ? (
    <Button size={size} variant="light" onClick={() => void actions.markPaidOut(payment)} loading={isBusy}>
      {t('payments.actions.markPaidOut')}
    </Button>
  ) : (
    <Button size={size} variant="light" onClick={() => void actions.requestPayout(payment)} loading={isBusy}>
      {t('payments.actions.requestPayout')}
    </Button>
  );
}

/** 'Pagos realizados' (SPEC §2): what the provider confirmed, and the seller's payout. */
export function PaidSection({ payments, query, searchMiss, isMobile, role, actions }: PaidSectionProps) {
  const { t } = useTranslation();
  const columns: BillingColumn<PaymentView>[] = [
    { id: 'id', label: t('payments.columns.id'), render: (p) => <PaymentIdCell id={p.id} /> },
    {
      id: 'winner',
      // SPEC's winner, WhatsApp and company, in one cell so the payout button stays in view.
      label: `${t('payments.columns.winner')} / ${t('payments.columns.company')}`,
      render: (p) => <WinnerCell name={p.winnerName} whatsapp={p.winnerWhatsapp} companyName={p.companyName ?? p.companyId} />,
      miw: 150,
    },
    { id: 'items', label: t('payments.columns.items'), render: (p) => <ItemsCell items={p.wonItems} />, miw: 190, isWide: true },
    { id: 'shipping', label: t('payments.columns.shipping'), render: (p) => <ShippingCell carrier={p.shippingCarrier} cost={p.shippingCost} /> },
    { id: 'grandTotal', label: t('payments.columns.total'), render: (p) => <Money amount={p.grandTotal} strong /> },
    { id: 'status', label: t('payments.columns.status'), render: (p) => <StatusCell payment={p} /> },
    { id: 'paidAt', label: t('payments.columns.paidAt'), render: (p) => <DateCell value={p.paidAt} /> },
    { id: 'payout', label: t('payments.columns.payout'), render: (p) => <PayoutCell payment={p} role={role} actions={actions} isCompact={!isMobile} /> },
  ];

  return (
    <BillingListSection
      section="paid"
      rows={payments}
      rowKey={(p) => p.id}
      columns={columns}
      cardHead="winner"
      query={query}
      searchMiss={searchMiss}
      isMobile={isMobile}
      skeletonColumns={8}
      minWidth={940}
    />
  );
}
