import { Divider, Select, Stack } from '@mantine/core';
import { useSessionStorage } from '@mantine/hooks';
import type { UseQueryResult } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import type { Me } from '../../../domain/api-types.js';
import type { PaymentView } from '../../../domain/payments.js';
import { useHubSessions } from '../../api/live-hub';
import { isPlatformAdmin } from '../../api/me';
import { usePayments, useWinnersSummary } from '../../api/payments';
import { useTranslation } from '../../i18n';
import { AddItemsModal } from './add-items-modal';
import type { SectionQuery } from './billing-section';
import { DraftSection } from './draft-section';
import { ExpiredSection } from './expired-section';
import { PaidSection, type PayoutFilter } from './paid-section';
import { matchesSearch, paymentSearchTexts } from './payment-search';
import { PendingSection } from './pending-section';
import { availableItemsFor, type ReadyRow, readyRows } from './ready-rows';
import { ReadySection } from './ready-section';
import { RemindersSection } from './reminders-section';
import type { BillingRole } from './row-actions';
import { type ConfirmTarget, EditShippingModal, type EditShippingTarget, ShippingConfirmModal } from './shipping-modals';
import { type Shipping, sanitizeClientShipping, shippingFormValues, validateShipping } from './shipping-rules';
import { useBillingActions } from './use-billing-actions';
import { busyKey } from './use-in-flight';

/** Shipping typed before a draft exists survives a switch of view or a reload of the tab. */
const CLIENT_SHIPPING_KEY = 'martillo.billing.shipping';

function sectionQuery(query: UseQueryResult<unknown>): SectionQuery {
  return { isPending: query.isPending, isFetching: query.isFetching, error: query.error, refetch: query.refetch };
}

/** Rows after the search, and the message when the search alone hides them all. */
function useSearched<T>(rows: T[] | undefined, search: string, texts: (row: T) => string[]) {
  const { t } = useTranslation();
  return useMemo(() => {
    if (!rows) return { rows: null, searchMiss: null };
    const found = rows.filter((row) => matchesSearch(texts(row), search));
    return { rows: found, searchMiss: found.length === 0 && rows.length > 0 ? t('payments.empty.noMatches', { search }) : null };
  }, [rows, search, texts, t]);
}

const readyTexts = (row: ReadyRow) => [
  row.winnerName,
  row.winnerWhatsapp ?? '',
  row.companyName ?? '',
  row.shippingCarrier ?? '',
  ...row.wonItems.map((i) => i.auctionName),
];

/**
 * 'Resumen de ganadores' (SPEC §2): the billing workspace. Winners ready to bill, drafts, links in
 * progress and paid payments; the panel's search box narrows all four.
 */
export function BillingWorkspace({ me, isMobile, search }: { me: Me; isMobile: boolean; search: string }) {
  const { t } = useTranslation();
  // Marking a payout done is the platform's job (an admin without a company); a company's admin asks like a seller.
  const showCompany = isPlatformAdmin(me);
  const role: BillingRole = showCompany ? 'admin' : 'seller';
  const actions = useBillingActions();

  // 'Show': the ready list narrowed to one show's lots; adding items to a draft still offers every unbilled win.
  const [showId, setShowId] = useState<string | null>(null);
  const sessions = useHubSessions();
  const showOptions = useMemo(
    () => [{ value: '', label: t('showBilling.filter.all') }, ...(sessions.data?.sessions ?? []).map((s) => ({ value: s.id, label: s.title }))],
    [sessions.data, t],
  );
  const summary = useWinnersSummary(showId);
  const allSummary = useWinnersSummary();
  const drafts = usePayments({ status: 'draft', q: '' });
  const pending = usePayments({ status: 'pending', q: '' });
  const [payoutFilter, setPayoutFilter] = useState<PayoutFilter>('all');
  const paid = usePayments({ status: 'paid', payoutStatus: payoutFilter === 'all' ? null : payoutFilter, q: '' });

  const [storedShipping, setStoredShipping] = useSessionStorage<Record<string, Shipping>>({
    key: CLIENT_SHIPPING_KEY,
    defaultValue: {},
    getInitialValueInEffect: false,
  });
  const clientShipping = useMemo(() => sanitizeClientShipping(storedShipping), [storedShipping]);
  const setClientShipping = useCallback(
    (key: string, shipping: Shipping | null) =>
      setStoredShipping((current) => {
        const next = { ...sanitizeClientShipping(current) };
        if (shipping) next[key] = shipping;
        else delete next[key];
        return next;
      }),
    [setStoredShipping],
  );

  const allReady = useMemo(() => (summary.data ? readyRows(summary.data, clientShipping) : undefined), [summary.data, clientShipping]);
  const ready = useSearched(allReady, search, readyTexts);
  const draftRows = useSearched(drafts.data, search, paymentSearchTexts);
  const pendingRows = useSearched(pending.data, search, paymentSearchTexts);
  const paidRows = useSearched(paid.data, search, paymentSearchTexts);

  const [editTarget, setEditTarget] = useState<EditShippingTarget | null>(null);
  const [confirmTarget, setConfirmTarget] = useState<ConfirmTarget | null>(null);
  const [addItemsId, setAddItemsId] = useState<string | null>(null);
  // The draft as the list has it now; a draft cancelled meanwhile closes the window.
  const addItemsPayment = drafts.data?.find((p) => p.id === addItemsId) ?? null;

  const createDraft = async (row: ReadyRow) => {
    const payment = await actions.createDraft(row);
    if (!payment) return;
    setClientShipping(row.key, null);
    actions.notices.success(t('payments.notices.draftCreated'));
  };

  /** No link yet: confirm the shipping first; the draft is created only on confirmation, so none is left behind. */
  const sendLink = (row: ReadyRow) => {
    if (actions.isBusy(busyKey.ready(row.key))) return;
    setConfirmTarget({ source: { kind: 'ready', row }, mode: 'send', initial: shippingFormValues(row) });
  };

  const finalizeDraft = (payment: PaymentView, typed: ReturnType<typeof shippingFormValues> | null) => {
    // What the inline fields show, when it is valid; else what the server has.
    const initial = typed && validateShipping(typed).ok ? typed : shippingFormValues(payment);
    setConfirmTarget({ source: { kind: 'draft', payment }, mode: 'finalize', initial });
  };

  const confirmLink = async (target: ConfirmTarget, shipping: Shipping): Promise<boolean> => {
    if (target.source.kind === 'draft') return actions.finalize(target.source.payment, shipping, target.mode);
    const { row } = target.source;
    const isCreated = await actions.sendNewLink(row, shipping);
    if (isCreated) setClientShipping(row.key, null);
    return isCreated;
  };

  const confirmBusyKey = (target: ConfirmTarget) =>
    target.source.kind === 'draft' ? busyKey.payment(target.source.payment.id) : busyKey.ready(target.source.row.key);

  return (
    <Stack gap="lg" role="region" aria-label={t('auctions.filters.winners')}>
      <ReadySection
        rows={ready.rows}
        query={sectionQuery(summary)}
        searchMiss={ready.searchMiss}
        isMobile={isMobile}
        showCompany={showCompany}
        isBusy={actions.isBusy}
        onCreateDraft={(row) => void createDraft(row)}
        onEditShipping={(row) => setEditTarget({ key: row.key, winnerName: row.winnerName, shipping: row })}
        onSendLink={sendLink}
        toolbar={
          <Select
            label={t('showBilling.filter.label')}
            data={showOptions}
            value={showId ?? ''}
            onChange={(v) => setShowId(v ? v : null)}
            allowDeselect={false}
            searchable
            maw={320}
          />
        }
      />
      <Divider />
      <DraftSection
        payments={draftRows.rows}
        query={sectionQuery(drafts)}
        searchMiss={draftRows.searchMiss}
        isMobile={isMobile}
        showCompany={showCompany}
        actions={actions}
        availableCount={(payment) => availableItemsFor(payment, allSummary.data).length}
        onAddItems={(payment) => setAddItemsId(payment.id)}
        onFinalize={finalizeDraft}
      />
      <Divider />
      <RemindersSection isMobile={isMobile} />
      <PendingSection
        payments={pendingRows.rows}
        query={sectionQuery(pending)}
        searchMiss={pendingRows.searchMiss}
        isMobile={isMobile}
        showCompany={showCompany}
        actions={actions}
      />
      <Divider />
      <ExpiredSection isMobile={isMobile} />
      <PaidSection
        payments={paidRows.rows}
        query={sectionQuery(paid)}
        searchMiss={paidRows.searchMiss}
        isMobile={isMobile}
        role={role}
        actions={actions}
        payoutFilter={payoutFilter}
        onPayoutFilterChange={setPayoutFilter}
      />

      <EditShippingModal target={editTarget} onClose={() => setEditTarget(null)} onSave={setClientShipping} />
      <ShippingConfirmModal
        target={confirmTarget}
        isBusy={confirmTarget ? actions.isBusy(confirmBusyKey(confirmTarget)) : false}
        // Closing it creates nothing and leaves nothing behind.
        onDismiss={() => setConfirmTarget(null)}
        onConfirm={confirmLink}
        onDone={() => setConfirmTarget(null)}
      />
      <AddItemsModal
        payment={addItemsPayment}
        available={addItemsPayment ? availableItemsFor(addItemsPayment, allSummary.data) : []}
        isBusy={addItemsPayment ? actions.isBusy(busyKey.payment(addItemsPayment.id)) : false}
        onClose={() => setAddItemsId(null)}
        onSubmit={actions.addItems}
      />
    </Stack>
  );
}
