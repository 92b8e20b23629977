import { lazy, Suspense, useState } from 'react';
import type { Bidding } from './use-bidding';

// Both dialogs load when first opened: a buyer who only looks never downloads them (issue 14).
const ReviewModal = lazy(() => import('./review-modal').then((m) => ({ default: m.ReviewModal })));
const ProfileModal = lazy(() => import('../../components/profile-modal').then((m) => ({ default: m.ProfileModal })));

/** True from the first time `opened` is, so a dialog stays mounted to animate out and reopen at once. */
function useOpenedOnce(opened: boolean): boolean {
  const [seen, setSeen] = useState(opened);
  if (opened && !seen) setSeen(true);
  return seen || opened;
}

/** The review step and the profile form that the bid flow opens. */
export function BiddingModals({ bidding }: { bidding: Bidding }) {
  const reviewMounted = useOpenedOnce(bidding.review.review !== null);
  const profileMounted = useOpenedOnce(bidding.profile.opened);
  return (
    <>
      <Suspense fallback={null}>{reviewMounted && <ReviewModal {...bidding.review} />}</Suspense>
      <Suspense fallback={null}>{profileMounted && <ProfileModal {...bidding.profile} />}</Suspense>
    </>
  );
}
