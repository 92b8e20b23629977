import { Badge, Button, SegmentedControl, Stack, Text } from '@mantine/core';
import type { PaymentView } from '../../../domain/payments.js';
import { useTranslation } from '../../i18n';
import type { BillingColumn } from './billing-list';
import classes from './billing-list.module.css';
import { BillingListSection, type SectionQuery } from './billing-section';
import { BADGE_STYLE, DateCell, ItemsCell, Money, PaymentIdCell, ShippingCell, StatusCell, WinnerCell } from './payment-cells';
import { type BillingRole, payoutView } from './row-actions';
import type { BillingActions } from './use-billing-actions';
import { busyKey } from './use-in-flight';

interface PaidSectionProps {
  payments: PaymentView[] | null;
  query: SectionQuery;
  searchMiss: string | null;
  isMobile: boolean;
  role: BillingRole;
  actions: BillingActions;
  payoutFilter: PayoutFilter;
  onPayoutFilterChange: (filter: PayoutFilter) => void;
}

/** 'Pagos realizados' filter by payout: the platform finds what sellers asked for. */
export const PAYOUT_FILTERS = ['all', 'requested', 'paid_out'] as const;
export type PayoutFilter = (typeof PAYOUT_FILTERS)[number];

function isPayoutFilter(value: string): value is PayoutFilter {
  return (PAYOUT_FILTERS as readonly string[]).includes(value);
}

/** The payout column: where the payout stands, and the one button this role may press (SPEC §4). */
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
      <Badge variant="light" color={PAYOUT_COLORS[view.status]} style={BADGE_STYLE}>
        {t(`payments.payout.${view.status}`)}
      </Badge>
    );
  }
  const isBusy = actions.isBusy(busyKey.payment(payment.id));
  const size = isCompact ? 'xs' : 'sm';
  return (
    <Stack gap={6} align="flex-start">
      {view.isRequested && (
        <Badge variant="light" color={PAYOUT_COLORS.requested} style={BADGE_STYLE}>
          {t('payments.payout.requested')}
        </Badge>
      )}
      {view.action === 'markPaidOut' ? (
        <Button size={size} variant="light" onClick={() => void actions.markPaidOut(payment)} loading={isBusy} className={classes.wrapButton}>
          {t('payments.actions.markPaidOut')}
        </Button>
      ) : (
        <Button size={size} variant="light" onClick={() => void actions.requestPayout(payment)} loading={isBusy} className={classes.wrapButton}>
          {t('payments.actions.requestPayout')}
        </Button>
      )}
    </Stack>
  );
}

const PAYOUT_COLORS = { none: 'gray', requested: 'blue', paid_out: 'green' } as const;

/** 'Pagos realizados' (SPEC §2): what the provider confirmed, and the seller's payout. */
export function PaidSection({ payments, query, searchMiss, isMobile, role, actions, payoutFilter, onPayoutFilterChange }: PaidSectionProps) {
  const { t } = useTranslation();
  // Fits the panel's main area at 1366 px, a common laptop width: status and paid date share a cell,
  // as do the shipping and the total, so the items and the payout keep their width.
  const columns: BillingColumn<PaymentView>[] = [
    { id: 'id', label: t('payments.columns.id'), render: (p) => <PaymentIdCell id={p.id} /> },
    {
      id: 'winner',
      // SPEC's winner, WhatsApp and company, in one cell so the payout button stays in view.
      label: `${t('payments.columns.winner')} / ${t('payments.columns.company')}`,
      render: (p) => <WinnerCell name={p.winnerName} whatsapp={p.winnerWhatsapp} companyName={p.companyName ?? p.companyId} />,
      miw: 150,
    },
    { id: 'items', label: t('payments.columns.items'), render: (p) => <ItemsCell items={p.wonItems} wrap />, miw: 180, isWide: true },
    {
      id: 'grandTotal',
      label: `${t('payments.columns.total')} / ${t('payments.columns.shipping')}`,
      render: (p) => (
        <Stack gap={2}>
          <Money amount={p.grandTotal} strong />
          <ShippingCell carrier={p.shippingCarrier} cost={p.shippingCost} />
        </Stack>
      ),
    },
    {
      id: 'status',
      label: `${t('payments.columns.status')} / ${t('payments.columns.paidAt')}`,
      render: (p) => (
        <Stack gap={4} align="flex-start">
          <StatusCell payment={p} />
          <DateCell value={p.paidAt} />
        </Stack>
      ),
    },
    {
      id: 'payout',
      label: t('payments.columns.payout'),
      render: (p) => <PayoutCell payment={p} role={role} actions={actions} isCompact={!isMobile} />,
      miw: 150,
    },
  ];

  const toolbar = (
    <SegmentedControl
      size="xs"
      aria-label={t('payments.payoutFilter.label')}
      data={PAYOUT_FILTERS.map((value) => ({ value, label: t(value === 'all' ? 'payments.payoutFilter.all' : `payments.payout.${value}`) }))}
      value={payoutFilter}
      onChange={(value) => {
        if (isPayoutFilter(value)) onPayoutFilterChange(value);
      }}
      style={{ alignSelf: 'flex-start' }}
      data-testid="payout-filter"
    />
  );

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
      skeletonColumns={6}
      minWidth={820}
      toolbar={toolbar}
      emptyText={payoutFilter === 'all' ? undefined : t('payments.payoutFilter.empty')}
    />
  );
}
