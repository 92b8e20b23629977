import { useMemo } from 'react';
import { useActionRunner } from './use-action-runner';
import { useBillingNotices } from './use-billing-notices';
import { useCancelAction } from './use-cancel-action';
import { useDraftActions } from './use-draft-actions';
import { useInFlight } from './use-in-flight';
import { useLinkActions } from './use-link-actions';
import { usePayoutActions } from './use-payout-actions';

/**
 * Every billing action of the workspace and the payments modal: one request per click (one busy
 * set shared by all of them), SPEC §8's messages on success and failure, and the lists refreshed
 * by the mutations themselves.
 */
export function useBillingActions() {
  const notices = useBillingNotices();
  const { run, isBusy } = useInFlight();
  const runAction = useActionRunner(notices);

  const { createDraft, saveShipping, addItems } = useDraftActions({ run, runAction, notices });
  const { finalize, sendNewLink, sendExistingLink, copyLink } = useLinkActions({ run, runAction, notices });
  const { requestCancel } = useCancelAction({ run, runAction, isBusy });
  const { requestPayout, markPaidOut } = usePayoutActions({ run, runAction });

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
