import { Stack, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { useCallback, useMemo, useRef } from 'react';
import { hasShipping, type PaymentView } from '../../../domain/payments.js';
import { useAddAuctions, useCancelPayment, useCreateDraft, useFinalizePayment, useMarkPaidOut, useRequestPayout, useUpdateShipping } from '../../api/payments';
import { useTranslation } from '../../i18n';
import { openBlankTab } from './browser';
import type { ReadyRow } from './ready-rows';
import { isCancelable } from './row-actions';
import { type Shipping, sameShipping } from './shipping-rules';
import { type CopyMessage, isServerFailure, useBillingNotices } from './use-billing-notices';
import { busyKey, useInFlight } from './use-in-flight';
import { paymentWhatsappHref } from './whatsapp-links';

/** What one action says: on success (optional) and on failure (which may read the error); onFailure runs first. */
interface ActionMessages {
  success?: string;
  failure: string | ((error: unknown) => string);
  onFailure?: () => void;
}

/** 'send' creates the link and opens WhatsApp with it; 'finalize' creates it and copies it (SPEC §7). */
export type LinkMode = 'send' | 'finalize';

/**
 * Every billing action of the workspace and the payments modal: one request per click, SPEC §8's
 * messages on success and failure, and the lists refreshed by the mutations themselves.
 */
export function useBillingActions() {
  const { t } = useTranslation();
  const notices = useBillingNotices();
  const { run, isBusy } = useInFlight();
  const isConfirming = useRef(false);

  const createDraftMutation = useCreateDraft();
  const updateShippingMutation = useUpdateShipping();
  const addAuctionsMutation = useAddAuctions();
  const finalizeMutation = useFinalizePayment();
  const cancelMutation = useCancelPayment();
  const requestPayoutMutation = useRequestPayout();
  const markPaidOutMutation = useMarkPaidOut();

  /** One request with SPEC §8's notices: the success message (if any), or the failure with the server's reason. Null when it failed. */
  const runAction = useCallback(
    async <T,>(fn: () => Promise<T>, messages: ActionMessages): Promise<{ value: T } | null> => {
      try {
        const value = await fn();
        if (messages.success) notices.success(messages.success);
        return { value };
      } catch (error) {
        messages.onFailure?.();
        notices.failure(typeof messages.failure === 'function' ? messages.failure(error) : messages.failure, error);
        return null;
      }
    },
    [notices],
  );

  /** A draft of every item of the row, then the shipping typed for it before (if any). */
  const createDraft = useCallback(
    async (row: ReadyRow): Promise<PaymentView | null> =>
      (await run(busyKey.ready(row.key), async () => {
        if (row.wonItems.length === 0) {
          notices.failure(t('payments.confirm.noItems'));
          return null;
        }
        const created = await runAction(
          () => createDraftMutation.mutateAsync({ winnerId: row.winnerId, auctionIds: row.wonItems.map((item) => item.auctionId) }),
          { failure: t('payments.errors.createDraft') },
        );
        if (!created) return null;
        if (!hasShipping(row)) return created.value.payment;
        // On failure the draft exists; its shipping can still be typed in 'Pagos en borrador'.
        const shipped = await runAction(
          () => updateShippingMutation.mutateAsync({ id: created.value.payment.id, shippingCarrier: row.shippingCarrier, shippingCost: row.shippingCost }),
          { failure: t('payments.errors.updateShipping') },
        );
        return (shipped ?? created).value.payment;
      })) ?? null,
    [run, runAction, notices, t, createDraftMutation.mutateAsync, updateShippingMutation.mutateAsync],
  );

  /** Inline carrier and cost of a draft, saved on blur. */
  const saveShipping = useCallback(
    async (payment: PaymentView, shipping: Shipping): Promise<boolean> =>
      (await run(
        busyKey.shipping(payment.id),
        async () =>
          (await runAction(() => updateShippingMutation.mutateAsync({ id: payment.id, ...shipping }), { failure: t('payments.errors.updateShipping') })) !==
          null,
      )) ?? false,
    [run, runAction, t, updateShippingMutation.mutateAsync],
  );

  const addItems = useCallback(
    async (payment: PaymentView, auctionIds: string[]): Promise<boolean> =>
      (await run(
        busyKey.payment(payment.id),
        async () =>
          (await runAction(() => addAuctionsMutation.mutateAsync({ id: payment.id, auctionIds }), {
            success: t('payments.notices.itemsAdded', { count: auctionIds.length }),
            failure: t('payments.errors.addItems'),
          })) !== null,
      )) ?? false,
    [run, runAction, t, addAuctionsMutation.mutateAsync],
  );

  /**
   * Saves the confirmed shipping if it changed, finalises, then sends or copies the link. `tab` is
   * the blank tab the click opened for WhatsApp (closed on failure). False when a step failed.
   */
  const deliverLink = useCallback(
    async (payment: PaymentView, shipping: Shipping, mode: LinkMode, tab: Window | null): Promise<boolean> => {
      const onFailure = () => tab?.close();
      if (!sameShipping(shipping, payment)) {
        const saved = await runAction(() => updateShippingMutation.mutateAsync({ id: payment.id, ...shipping }), {
          failure: t('payments.errors.updateShipping'),
          onFailure,
        });
        if (!saved) return false;
      }
      const answer = await runAction(() => finalizeMutation.mutateAsync(payment.id), {
        failure: (error) => t(isServerFailure(error) ? 'payments.errors.createLink' : 'payments.errors.finalize'),
        onFailure,
      });
      if (!answer) return false;
      const { paymentLinkUrl: link, payment: finalized } = answer.value;
      if (mode === 'send') {
        const href = paymentWhatsappHref(finalized, link);
        if (href && tab && !tab.closed) tab.location.href = href;
        else if (href) notices.openWhatsapp(href);
        else {
          tab?.close();
          notices.noWhatsapp(link);
        }
      } else {
        await notices.copyLink(link, 'linkCopiedFinalize');
      }
      return true;
    },
    [runAction, notices, t, updateShippingMutation.mutateAsync, finalizeMutation.mutateAsync],
  );

  /** 'Finalizar y generar enlace' on a draft, after its confirmation. */
  const finalize = useCallback(
    async (payment: PaymentView, shipping: Shipping, mode: LinkMode): Promise<boolean> =>
      (await run(busyKey.payment(payment.id), () =>
        // Opened now, inside the click: a tab opened after the requests would meet the pop-up blocker.
        deliverLink(payment, shipping, mode, mode === 'send' && payment.winnerWhatsapp ? openBlankTab() : null),
      )) ?? false,
    [run, deliverLink],
  );

  /**
   * 'Enviar enlace de pago' on a winner with no draft, once the seller confirmed the shipping:
   * only now is the draft created, then finalised and sent. True once the draft exists, even if a
   * later step failed (its notice says so and the draft waits in 'Pagos en borrador'); false when
   * nothing was created.
   */
  const sendNewLink = useCallback(
    async (row: ReadyRow, shipping: Shipping): Promise<boolean> =>
      (await run(busyKey.ready(row.key), async () => {
        if (row.wonItems.length === 0) {
          notices.failure(t('payments.confirm.noItems'));
          return false;
        }
        const tab = row.winnerWhatsapp ? openBlankTab() : null;
        const created = await runAction(
          () => createDraftMutation.mutateAsync({ winnerId: row.winnerId, auctionIds: row.wonItems.map((item) => item.auctionId) }),
          { failure: t('payments.errors.createDraft'), onFailure: () => tab?.close() },
        );
        if (!created) return false;
        await deliverLink(created.value.payment, shipping, 'send', tab);
        return true;
      })) ?? false,
    [run, runAction, deliverLink, notices, t, createDraftMutation.mutateAsync],
  );

  const cancel = useCallback(
    (payment: PaymentView) =>
      run(busyKey.payment(payment.id), () => {
        const isDraft = payment.paymentStatus === 'draft';
        return runAction(() => cancelMutation.mutateAsync(payment.id), {
          success: t(isDraft ? 'payments.notices.draftCanceled' : 'payments.notices.paymentCanceled'),
          failure: t(isDraft ? 'payments.errors.cancelDraft' : 'payments.errors.cancelPending'),
        });
      }),
    [run, runAction, t, cancelMutation.mutateAsync],
  );

  /** SPEC §5: cancelling asks first and says where the items go. One question at a time. */
  const requestCancel = useCallback(
    (payment: PaymentView) => {
      if (!isCancelable(payment.paymentStatus) || isConfirming.current || isBusy(busyKey.payment(payment.id))) return;
      isConfirming.current = true;
      const kind = payment.paymentStatus === 'draft' ? 'draft' : 'pending';
      modals.openConfirmModal({
        title: t(`payments.cancel.${kind}Title`),
        centered: true,
        // The second click of a double click must not dismiss the question it just opened.
        closeOnClickOutside: false,
        children: (
          <Stack gap="xs">
            <Text size="sm">{t(`payments.cancel.${kind}Question`)}</Text>
            <Text size="sm" c="dimmed">
              {t(`payments.cancel.${kind}Detail`, { name: payment.winnerName })}
            </Text>
          </Stack>
        ),
        labels: { confirm: t('payments.cancel.confirm'), cancel: t('payments.cancel.keep') },
        confirmProps: { color: 'red' },
        onConfirm: () => void cancel(payment),
        onClose: () => {
          isConfirming.current = false;
        },
      });
    },
    [cancel, isBusy, t],
  );

  const requestPayout = useCallback(
    (payment: PaymentView) =>
      run(busyKey.payment(payment.id), () =>
        runAction(() => requestPayoutMutation.mutateAsync(payment.id), {
          success: t('payments.notices.payoutRequested'),
          failure: t('payments.errors.requestPayout'),
        }),
      ),
    [run, runAction, t, requestPayoutMutation.mutateAsync],
  );

  const markPaidOut = useCallback(
    (payment: PaymentView) =>
      run(busyKey.payment(payment.id), () =>
        runAction(() => markPaidOutMutation.mutateAsync(payment.id), {
          success: t('payments.notices.markedPaidOut'),
          failure: t('payments.errors.markPaidOut'),
        }),
      ),
    [run, runAction, t, markPaidOutMutation.mutateAsync],
  );

  /** A link that already exists goes straight to WhatsApp, inside the click (no pop-up blocker). */
  const sendExistingLink = useCallback(
    (payment: PaymentView) => {
      if (!payment.paymentLink) return;
      const href = paymentWhatsappHref(payment, payment.paymentLink);
      if (href) notices.openWhatsapp(href);
      else notices.noWhatsapp(payment.paymentLink);
    },
    [notices],
  );

  const copyLink = useCallback((link: string, message: CopyMessage) => void notices.copyLink(link, message), [notices]);

  return useMemo(
    () => ({
      isBusy,
      createDraft,
      saveShipping,
      addItems,
      finalize,
      sendNewLink,
      requestCancel,
      requestPayout,
      markPaidOut,
      sendExistingLink,
      copyLink,
      notices,
    }),
    [isBusy, createDraft, saveShipping, addItems, finalize, sendNewLink, requestCancel, requestPayout, markPaidOut, sendExistingLink, copyLink, notices],
  );
}

export type BillingActions = ReturnType<typeof useBillingActions>;
