import { Stack, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { useCallback, useRef } from 'react';
import type { PaymentView } from '../../../domain/payments.js';
import { useCancelPayment } from '../../api/payments';
import { useTranslation } from '../../i18n';
import { isCancelable } from './row-actions';
import type { ActionTools } from './use-action-runner';
import { busyKey } from './use-in-flight';

/** Cancelling a draft or a pending payment, after its question. */
export function useCancelAction({ run, runAction, isBusy }: Pick<ActionTools, 'run' | 'runAction'> & { isBusy: (key: string) => boolean }) {
  const { t } = useTranslation();
  const isConfirming = useRef(false);
  const cancelMutation = useCancelPayment();

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

  return { requestCancel };
}
