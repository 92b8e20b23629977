import { lazy, Suspense, useEffect, useState } from 'react';
import type { Bidding } from './use-bidding';

// The dialogs are not in the page's first paint (issue 14). The review loads once the page is up,
// so a bid made after the network dropped still gets its review and its 'Sin conexión' answer; the
// profile form, which needs the network anyway, loads when first opened.
const loadReviewModal = () => import('./review-modal');
const ReviewModal = lazy(() => loadReviewModal().then((m) => ({ default: m.ReviewModal })));
const ProfileModal = lazy(() => import('../../components/profile-modal').then((m) => ({ default: m.ProfileModal })));

/** True from the first time `opened` is, so a dialog stays mounted to animate out and reopen at once. */
function useOpenedOnce(opened: boolean): boolean {
  const [seen, setSeen] = useState(opened);
  if (opened && !seen) setSeen(true);
  return seen || opened;
}

/** The review step and the profile form that the bid flow opens. */
export function BiddingModals({ bidding }: { bidding: Bidding }) {
  useEffect(() => {
    void loadReviewModal();
  }, []);
  const reviewMounted = useOpenedOnce(bidding.review.review !== null);
  const profileMounted = useOpenedOnce(bidding.profile.opened);
  return (
    <>
      <Suspense fallback={null}>{reviewMounted && <ReviewModal {...bidding.review} />}</Suspense>
      <Suspense fallback={null}>{profileMounted && <ProfileModal {...bidding.profile} />}</Suspense>
    </>
  );
}
