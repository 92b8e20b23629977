import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { useMe } from '../../api/me';
import { LoadErrorBoundary, LoadFailed } from '../../components/load-error-boundary';
import { useTranslation } from '../../i18n';
import type { Bidding } from './use-bidding';

// The dialogs are not in the page's first paint, which stays light for a buyer's phone. The review
// loads once the page is up for a signed-in buyer, so a bid made after the network dropped still
// gets its review and its 'Sin conexión' answer (a signed-out visitor's 'Pujar' goes to sign in,
// and comes back signed in); the profile form, which needs the network anyway, loads when first opened.
const loadReviewModal = () => import('./review-modal');
const loadProfileModal = () => import('../../components/profile-modal');

/** True from the first time `opened` is, so a dialog stays mounted to animate out and reopen at once. */
function useOpenedOnce(opened: boolean): boolean {
  const [seen, setSeen] = useState(opened);
  if (opened && !seen) setSeen(true);
  return seen || opened;
}

/**
 * The lazy dialogs, made again on a retry: React keeps a lazy component's failed load for good, so
 * a dialog whose code did not arrive (offline, or a new deploy) could never open otherwise.
 */
function useDialogs() {
  const [attempt, setAttempt] = useState(0);
  const dialogs = useMemo(
    () => ({
      attempt,
      ReviewModal: lazy(() => loadReviewModal().then((m) => ({ default: m.ReviewModal }))),
      ProfileModal: lazy(() => loadProfileModal().then((m) => ({ default: m.ProfileModal }))),
    }),
    [attempt],
  );
  return { ...dialogs, retry: () => setAttempt((n) => n + 1) };
}

/** The review step and the profile form that the bid flow opens. */
export function BiddingModals({ bidding }: { bidding: Bidding }) {
  const { t } = useTranslation();
  const signedIn = Boolean(useMe().data);
  useEffect(() => {
    // Fetched once the page is up; a failure here is met again, and shown, when the dialog opens.
    if (signedIn) loadReviewModal().catch(() => undefined);
  }, [signedIn]);
  const { ReviewModal, ProfileModal, attempt, retry } = useDialogs();
  const reviewMounted = useOpenedOnce(bidding.review.review !== null);
  const profileMounted = useOpenedOnce(bidding.profile.opened);
  const failed = (reset: () => void) => (
    <LoadFailed
      fixed
      message={t('bidding.dialogLoadFailed')}
      onRetry={() => {
        retry();
        reset();
      }}
    />
  );
  return (
    <LoadErrorBoundary key={attempt} fallback={failed}>
      <Suspense fallback={null}>{reviewMounted && <ReviewModal {...bidding.review} />}</Suspense>
      <Suspense fallback={null}>{profileMounted && <ProfileModal {...bidding.profile} />}</Suspense>
    </LoadErrorBoundary>
  );
}
