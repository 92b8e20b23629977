import { useCallback } from 'react';
import type { PaymentView } from '../../../domain/payments.js';
import { useCreateDraft, useFinalizePayment, useUpdateShipping } from '../../api/payments';
import { useTranslation } from '../../i18n';
import { openBlankTab } from '../../lib/browser';
import type { ReadyRow } from './ready-rows';
import { type Shipping, sameShipping } from './shipping-rules';
import type { ActionTools } from './use-action-runner';
import { type CopyMessage, isServerFailure } from './use-billing-notices';
import { busyKey } from './use-in-flight';
import { paymentWhatsappHref } from './whatsapp-links';

/** 'send' creates the link and opens WhatsApp with it; 'finalize' creates it and copies it (SPEC §7). */
export type LinkMode = 'send' | 'finalize';

/** The payment link: finalising a draft (or a ready row) and sending or copying its link. */
export function useLinkActions({ run, runAction, notices }: ActionTools) {
  const { t } = useTranslation();
  const createDraftMutation = useCreateDraft();
  const updateShippingMutation = useUpdateShipping();
  const finalizeMutation = useFinalizePayment();

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

  return { finalize, sendNewLink, sendExistingLink, copyLink };
}
