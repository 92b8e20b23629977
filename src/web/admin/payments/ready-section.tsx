import { Badge, Button, Tooltip } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from '../../i18n';
import type { BillingColumn } from './billing-list';
import { BillingListSection, type SectionQuery } from './billing-section';
import { BADGE_STYLE, ItemsCell, Money, ShippingCell, WinnerCell } from './payment-cells';
import type { ReadyRow } from './ready-rows';
import { busyKey } from './use-in-flight';

interface ReadySectionProps {
  rows: ReadyRow[] | null;
  query: SectionQuery;
  searchMiss: string | null;
  isMobile: boolean;
  showCompany: boolean;
  isBusy: (key: string) => boolean;
  onCreateDraft: (row: ReadyRow) => void;
  onEditShipping: (row: ReadyRow) => void;
  onSendLink: (row: ReadyRow) => void;
  /** Above the list: the show filter. */
  toolbar?: ReactNode;
}

/** 'Listos para facturar' (SPEC §2): each winner's unbilled items, the shipping typed for them, and the three actions. */
export function ReadySection({
  rows,
  query,
  searchMiss,
  isMobile,
  showCompany,
  isBusy,
  onCreateDraft,
  onEditShipping,
  onSendLink,
  toolbar,
}: ReadySectionProps) {
  const { t } = useTranslation();
  const columns: BillingColumn<ReadyRow>[] = [
    {
      id: 'winner',
      label: t('payments.columns.winner'),
      render: (row) => <WinnerCell name={row.winnerName} whatsapp={row.winnerWhatsapp} companyName={showCompany ? row.companyName : null} />,
      miw: 150,
    },
    { id: 'items', label: t('payments.columns.items'), render: (row) => <ItemsCell items={row.wonItems} />, miw: 190, isWide: true },
    { id: 'total', label: t('payments.columns.total'), render: (row) => <Money amount={row.totalAmount} /> },
    { id: 'shipping', label: t('payments.columns.shipping'), render: (row) => <ShippingCell carrier={row.shippingCarrier} cost={row.shippingCost} /> },
    { id: 'grandTotal', label: t('payments.columns.grandTotal'), render: (row) => <Money amount={row.grandTotal} strong /> },
    {
      id: 'status',
      label: t('payments.columns.status'),
      render: () => (
        <Badge color="green" variant="light" style={BADGE_STYLE}>
          {t('payments.readyBadge')}
        </Badge>
      ),
    },
  ];

  const actions = (row: ReadyRow, isCompact: boolean) => {
    const isRowBusy = isBusy(busyKey.ready(row.key));
    const size = isCompact ? 'xs' : 'sm';
    const sendButton = (
      <Button size={size} onClick={() => onSendLink(row)} disabled={isRowBusy || !row.winnerWhatsapp} fullWidth>
        {t('payments.actions.sendLink')}
      </Button>
    );
    return (
      <>
        <Button size={size} variant="light" onClick={() => onCreateDraft(row)} loading={isRowBusy}>
          {t('payments.actions.createDraft')}
        </Button>
        <Button size={size} variant="default" onClick={() => onEditShipping(row)} disabled={isRowBusy}>
          {t('payments.actions.editShipping')}
        </Button>
        {row.winnerWhatsapp ? (
          sendButton
        ) : (
          <Tooltip label={t('payments.actions.sendLinkNoWhatsapp')} withinPortal>
            {/* A disabled button fires no events: the wrapper carries the tooltip. */}
            <span style={{ display: 'block', flex: isCompact ? undefined : 1 }}>{sendButton}</span>
          </Tooltip>
        )}
      </>
    );
  };

  return (
    <BillingListSection
      section="ready"
      rows={rows}
      rowKey={(row) => row.key}
      columns={columns}
      actions={actions}
      query={query}
      searchMiss={searchMiss}
      isMobile={isMobile}
      skeletonColumns={7}
      minWidth={900}
      toolbar={toolbar}
    />
  );
}
