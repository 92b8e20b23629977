import { useCallback, useRef } from 'react';
import { hasShipping, type PaymentView } from '../../../domain/payments.js';
import { useAddAuctions, useCreateDraft, useUpdateShipping } from '../../api/payments';
import { useTranslation } from '../../i18n';
import type { ReadyRow } from './ready-rows';
import type { Shipping } from './shipping-rules';
import type { ActionTools } from './use-action-runner';
import { busyKey, saveNewest } from './use-in-flight';

/** A draft from a ready row, its inline shipping, and the items added to it. */
export function useDraftActions({ run, runAction, notices }: ActionTools) {
  const { t } = useTranslation();
  const createDraftMutation = useCreateDraft();
  const updateShippingMutation = useUpdateShipping();
  const addAuctionsMutation = useAddAuctions();

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

  /** The newest shipping typed for a draft whose previous save is still on its way. */
  const queuedShipping = useRef(new Map<string, Shipping>());
  /**
   * Inline carrier and cost of a draft, saved on blur. A blur while the draft's last save (and the
   * lists it refreshes) is on its way, the cost right after the carrier, is saved after it, never
   * dropped: the seller typed it.
   */
  const saveShipping = useCallback(
    (payment: PaymentView, shipping: Shipping): Promise<boolean> =>
      saveNewest(
        run,
        queuedShipping.current,
        { id: payment.id, key: busyKey.shipping(payment.id) },
        shipping,
        async (next) =>
          (await runAction(() => updateShippingMutation.mutateAsync({ id: payment.id, ...next }), { failure: t('payments.errors.updateShipping') })) !== null,
      ),
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

  return { createDraft, saveShipping, addItems };
}
