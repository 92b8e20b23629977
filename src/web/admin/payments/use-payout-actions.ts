import { useCallback } from 'react';
import type { PaymentView } from '../../../domain/payments.js';
import { useMarkPaidOut, useRequestPayout } from '../../api/payments';
import { useTranslation } from '../../i18n';
import type { ActionTools } from './use-action-runner';
import { busyKey } from './use-in-flight';

/** A paid payment's payout: the seller requests it, the platform marks it paid out. */
export function usePayoutActions({ run, runAction }: Pick<ActionTools, 'run' | 'runAction'>) {
  const { t } = useTranslation();
  const requestPayoutMutation = useRequestPayout();
  const markPaidOutMutation = useMarkPaidOut();

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

  return { requestPayout, markPaidOut };
}
