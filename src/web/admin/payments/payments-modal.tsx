import { Alert, Button, EmptyState, Group, Modal, NativeSelect, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { PaymentView } from '../../../domain/payments.js';
import { isPlatformAdmin, useMe } from '../../api/me';
import { usePayments } from '../../api/payments';
import { AlertIcon, ReceiptIcon } from '../../components/icons';
import { RetryIcon, SearchIcon } from '../../components/panel-icons';
import { Spinner } from '../../components/spinner';
import { useTranslation } from '../../i18n';
import { useErrorText } from '../../lib/use-error-text';
import { isPaymentStatusFilter, PAYMENT_STATUS_FILTERS, type PaymentStatusFilter } from '../panel-url';
import { usePanelWindow } from '../use-panel-window';
import { useSearchDraft } from '../use-search-draft';
import { type BillingColumn, BillingList, BillingListSkeleton } from './billing-list';
import { Money, PaymentIdCell, ShippingCell, StatusCell, WebhookCell, WinnerCell } from './payment-cells';
import { linkActions, payoutView } from './row-actions';
import { useBillingActions } from './use-billing-actions';
import { busyKey } from './use-in-flight';

/** 'Pagos' (SPEC §2 modals): every payment this user may see, with the provider's webhook state. */
export function PaymentsModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const isMobile = useMediaQuery('(max-width: 48em)') ?? false;
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('payments.modal.title')}
      size="80rem"
      fullScreen={isMobile}
      centered
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      {opened && <PaymentsManager isCompact={isMobile} />}
    </Modal>
  );
}

function PaymentsManager({ isCompact }: { isCompact: boolean }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const actions = useBillingActions();
  const me = useMe();
  // Marking a payout done is the platform's; everyone else may ask for it (as in 'Pagos realizados').
  const role = me.data && isPlatformAdmin(me.data) ? 'admin' : 'seller';
  // Status filter and search live in the URL (use-panel-window.ts): each change is a history entry.
  const { state, set, setSearch } = usePanelWindow();
  const { status } = state;
  const setStatus = (next: PaymentStatusFilter) => {
    if (next !== status) set({ status: next });
  };
  const search = useSearchDraft(state.search, setSearch);
  const payments = usePayments({ status: status === 'all' ? null : status, q: state.search });
  const options = PAYMENT_STATUS_FILTERS.map((value) => ({ value, label: t(value === 'all' ? 'payments.modal.allStatuses' : `payments.status.${value}`) }));

  const columns: BillingColumn<PaymentView>[] = [
    { id: 'id', label: t('payments.columns.id'), render: (p) => <PaymentIdCell id={p.id} /> },
    { id: 'winner', label: t('payments.columns.winner'), render: (p) => <WinnerCell name={p.winnerName} companyName={p.companyName} />, miw: 140 },
    { id: 'total', label: t('payments.columns.total'), render: (p) => <Money amount={p.grandTotal} strong /> },
    { id: 'shipping', label: t('payments.columns.shipping'), render: (p) => <ShippingCell carrier={p.shippingCarrier} cost={p.shippingCost} /> },
    { id: 'status', label: t('payments.columns.status'), render: (p) => <StatusCell payment={p} /> },
    { id: 'webhook', label: t('payments.columns.webhook'), render: (p) => <WebhookCell payment={p} /> },
  ];

  /** What a row offers: its link and cancel while it waits, and the payout step this role may take once paid. */
  const rowActionsOf = (p: PaymentView) => {
    const payout = payoutView(p, role);
    return { ...linkActions(p), payout: payout.kind === 'button' ? payout.action : null };
  };
  const hasActions = (p: PaymentView) => {
    const a = rowActionsOf(p);
    return (a.openLink || a.copyLink) && p.paymentLink ? true : a.cancel || a.payout !== null;
  };

  const rowActions = (p: PaymentView, isTable: boolean) => {
    const allowed = rowActionsOf(p);
    const link = p.paymentLink;
    const size = isTable ? 'xs' : 'sm';
    const isBusy = actions.isBusy(busyKey.payment(p.id));
    return (
      <>
        {allowed.openLink && link && (
          <Button size={size} variant="default" component="a" href={link} target="_blank" rel="noopener noreferrer">
            {t('payments.actions.openLink')}
          </Button>
        )}
        {allowed.copyLink && link && (
          <Button size={size} variant="light" onClick={() => actions.copyLink(link, 'linkCopiedModal')}>
            {t('payments.actions.copyLink')}
          </Button>
        )}
        {allowed.cancel && (
          <Button size={size} variant="subtle" color="red" onClick={() => actions.requestCancel(p)} loading={isBusy}>
            {t('payments.actions.cancel')}
          </Button>
        )}
        {allowed.payout === 'markPaidOut' && (
          <Button size={size} variant="light" onClick={() => void actions.markPaidOut(p)} loading={isBusy}>
            {t('payments.actions.markPaidOut')}
          </Button>
        )}
        {allowed.payout === 'requestPayout' && (
          <Button size={size} variant="light" onClick={() => void actions.requestPayout(p)} loading={isBusy}>
            {t('payments.actions.requestPayout')}
          </Button>
        )}
      </>
    );
  };

  const data = payments.data;
  return (
    <Stack gap="md">
      <Group gap="sm" align="center" wrap="wrap">
        {isCompact ? (
          <NativeSelect
            aria-label={t('payments.modal.statusLabel')}
            data={options}
            value={status}
            onChange={(event) => {
              if (isPaymentStatusFilter(event.currentTarget.value)) setStatus(event.currentTarget.value);
            }}
            w="100%"
          />
        ) : (
          <SegmentedControl
            aria-label={t('payments.modal.statusLabel')}
            data={options}
            value={status}
            onChange={(value) => {
              if (isPaymentStatusFilter(value)) setStatus(value);
            }}
          />
        )}
        <TextInput
          type="search"
          aria-label={t('payments.modal.searchLabel')}
          placeholder={t('payments.modal.searchPlaceholder')}
          leftSection={<SearchIcon />}
          value={search.draft}
          onChange={(event) => search.setDraft(event.currentTarget.value)}
          onKeyDown={search.onKeyDown}
          flex={1}
          miw={isCompact ? '100%' : 220}
          maxLength={100}
          autoComplete="off"
        />
        <Button
          variant="default"
          leftSection={<RetryIcon size={16} />}
          onClick={() => void payments.refetch()}
          loading={payments.isFetching}
          fullWidth={isCompact}
        >
          {t('payments.modal.refresh')}
        </Button>
      </Group>
      {payments.error ? (
        <Alert color="red" variant="light" icon={<AlertIcon />} role="alert">
          <Stack gap="sm" align="flex-start">
            <Text size="sm">{t('payments.errors.load', { reason: errorText(payments.error) })}</Text>
            <Button size="xs" variant="light" color="red" onClick={() => void payments.refetch()} loading={payments.isFetching}>
              {t('common.retry')}
            </Button>
          </Stack>
        </Alert>
      ) : null}
      {payments.isPending ? (
        <BillingListSkeleton columns={7} isMobile={isCompact} />
      ) : !data || payments.error ? null : data.length === 0 ? (
        <EmptyState
          icon={<ReceiptIcon size={28} />}
          withIndicatorBackground
          title={t('payments.empty.modal')}
          py="xl"
          role="status"
          data-testid="payments-modal-empty"
        />
      ) : (
        <Stack gap="xs" style={{ opacity: payments.isFetching ? 0.7 : 1, transition: 'opacity 150ms' }} aria-busy={payments.isFetching}>
          <Group justify="space-between">
            <Text size="sm" c="dimmed" aria-live="polite">
              {t('payments.modal.total', { count: data.length })}
            </Text>
            {payments.isFetching && <Spinner size="xs" label={t('auctions.table.updating')} />}
          </Group>
          <BillingList
            rows={data}
            rowKey={(p) => p.id}
            columns={columns}
            cardHead="winner"
            // Only real actions: with none on any row, the column goes (an empty column only takes room).
            actions={data.some(hasActions) ? rowActions : undefined}
            actionsLabel={t('payments.columns.actions')}
            label={t('payments.modal.listLabel')}
            isMobile={isCompact}
            minWidth={960}
          />
        </Stack>
      )}
    </Stack>
  );
}
