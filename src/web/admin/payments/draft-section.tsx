import { Badge, Button, Group, Stack } from '@mantine/core';
import { useRef } from 'react';
import type { PaymentView } from '../../../domain/payments.js';
import { useTranslation } from '../../i18n';
import type { BillingColumn } from './billing-list';
import { BillingListSection, type SectionQuery } from './billing-section';
import { DraftShippingFields } from './draft-shipping-fields';
import { DateCell, ItemsCell, Money, ReservedBadge, WinnerCell } from './payment-cells';
import { isDraftEditable } from './row-actions';
import type { ShippingFormValues } from './shipping-rules';
import type { BillingActions } from './use-billing-actions';
import { busyKey } from './use-in-flight';

interface DraftSectionProps {
  payments: PaymentView[] | null;
  query: SectionQuery;
  searchMiss: string | null;
  isMobile: boolean;
  showCompany: boolean;
  actions: BillingActions;
  /** How many unbilled items of the same winner and company each draft could take. */
  availableCount: (payment: PaymentView) => number;
  onAddItems: (payment: PaymentView) => void;
  /** Opens the shipping confirmation with what the fields show right now. */
  onFinalize: (payment: PaymentView, typed: ShippingFormValues | null) => void;
}

/** 'Pagos en borrador' (SPEC §2): inline shipping saved on blur, add items, finalise after confirming shipping, cancel. */
export function DraftSection({ payments, query, searchMiss, isMobile, showCompany, actions, availableCount, onAddItems, onFinalize }: DraftSectionProps) {
  const { t } = useTranslation();
  const typed = useRef(new Map<string, ShippingFormValues>());

  const columns: BillingColumn<PaymentView>[] = [
    {
      id: 'winner',
      label: t('payments.columns.winner'),
      render: (p) => <WinnerCell name={p.winnerName} whatsapp={p.winnerWhatsapp} companyName={showCompany ? p.companyName : null} />,
      miw: 150,
    },
    { id: 'items', label: t('payments.columns.items'), render: (p) => <ItemsCell items={p.wonItems} />, miw: 190, isWide: true },
    { id: 'total', label: t('payments.columns.total'), render: (p) => <Money amount={p.totalAmount} /> },
    {
      id: 'shipping',
      label: t('payments.columns.shipping'),
      render: (p) => (
        <Stack gap={4}>
          {p.isReserved && (
            <Group>
              <ReservedBadge />
            </Group>
          )}
          <DraftShippingFields
            payment={p}
            isSaving={actions.isBusy(busyKey.shipping(p.id))}
            isDisabled={actions.isBusy(busyKey.payment(p.id)) || !isDraftEditable(p)}
            onSave={actions.saveShipping}
            onValuesChange={(values) => typed.current.set(p.id, values)}
            isCompact={!isMobile}
          />
        </Stack>
      ),
      miw: 170,
      isWide: true,
    },
    { id: 'grandTotal', label: t('payments.columns.grandTotal'), render: (p) => <Money amount={p.grandTotal} strong /> },
    { id: 'createdAt', label: t('payments.columns.createdAt'), render: (p) => <DateCell value={p.createdAt} /> },
  ];

  const rowActions = (p: PaymentView, isCompact: boolean) => {
    const isRowBusy = actions.isBusy(busyKey.payment(p.id));
    const available = availableCount(p);
    const size = isCompact ? 'xs' : 'sm';
    return (
      <>
        <Button
          size={size}
          variant="light"
          onClick={() => onAddItems(p)}
          disabled={isRowBusy || available === 0 || !isDraftEditable(p)}
          rightSection={
            available > 0 ? (
              <Badge size="xs" variant="filled" circle>
                {available}
              </Badge>
            ) : null
          }
        >
          {t('payments.actions.addItems')}
        </Button>
        <Button size={size} onClick={() => onFinalize(p, typed.current.get(p.id) ?? null)} loading={isRowBusy}>
          {t('payments.actions.finalize')}
        </Button>
        <Button size={size} variant="subtle" color="red" onClick={() => actions.requestCancel(p)} disabled={isRowBusy}>
          {t('payments.actions.cancel')}
        </Button>
      </>
    );
  };

  return (
    <BillingListSection
      section="drafts"
      rows={payments}
      rowKey={(p) => p.id}
      columns={columns}
      actions={rowActions}
      query={query}
      searchMiss={searchMiss}
      isMobile={isMobile}
      skeletonColumns={7}
      minWidth={960}
    />
  );
}
