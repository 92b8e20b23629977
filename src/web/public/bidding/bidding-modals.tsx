import { Suspense, useEffect, useState } from 'react';
import { useMe } from '../../api/me';
import { useRetryableLazy } from '../../components/lazy-part';
import { LoadErrorBoundary, LoadFailed } from '../../components/load-error-boundary';
import { useTranslation } from '../../i18n';
import type { Bidding } from './use-bidding';

// The dialogs are not in the page's first paint, which stays light for a buyer's phone. The review
// loads once the page is up for a signed-in buyer, so a bid made after the network dropped still
// gets its review and its 'Sin conexión' answer (a signed-out visitor's 'Pujar' goes to sign in,
// and comes back signed in); the profile form, which needs the network anyway, loads when first opened.
const loadReviewModal = () => import('./review-modal').then((m) => m.ReviewModal);
const loadProfileModal = () => import('../../components/profile-modal').then((m) => m.ProfileModal);

/** True from the first time `opened` is, so a dialog stays mounted to animate out and reopen at once. */
function useOpenedOnce(opened: boolean): boolean {
  const [seen, setSeen] = useState(opened);
  if (opened && !seen) setSeen(true);
  return seen || opened;
}

/** The review step and the profile form that the bid flow opens. */
export function BiddingModals({ bidding }: { bidding: Bidding }) {
  const { t } = useTranslation();
  const signedIn = Boolean(useMe().data);
  useEffect(() => {
    // Fetched once the page is up; a failure here is met again, and shown, when the dialog opens.
    if (signedIn) loadReviewModal().catch(() => undefined);
  }, [signedIn]);
  // Made again on a retry (useRetryableLazy): a dialog whose code did not arrive (offline, or a new deploy) could never open otherwise.
  const review = useRetryableLazy(loadReviewModal);
  const profile = useRetryableLazy(loadProfileModal);
  const { Loaded: ReviewModal } = review;
  const { Loaded: ProfileModal } = profile;
  const reviewMounted = useOpenedOnce(bidding.review.review !== null);
  const profileMounted = useOpenedOnce(bidding.profile.opened);
  const failed = (reset: () => void) => (
    <LoadFailed
      fixed
      message={t('bidding.dialogLoadFailed')}
      onRetry={() => {
        review.retry();
        profile.retry();
        reset();
      }}
    />
  );
  return (
    <LoadErrorBoundary key={`${review.attempt}:${profile.attempt}`} fallback={failed}>
      <Suspense fallback={null}>{reviewMounted && <ReviewModal {...bidding.review} />}</Suspense>
      <Suspense fallback={null}>{profileMounted && <ProfileModal {...bidding.profile} />}</Suspense>
    </LoadErrorBoundary>
  );
}
