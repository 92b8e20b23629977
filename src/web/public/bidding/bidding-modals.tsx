import { ProfileModal } from '../../components/profile-modal';
import { ReviewModal } from './review-modal';
import type { Bidding } from './use-bidding';

/** The review step and the profile form that the bid flow opens. */
export function BiddingModals({ bidding }: { bidding: Bidding }) {
  return (
    <>
      <ReviewModal {...bidding.review} />
      <ProfileModal {...bidding.profile} />
    </>
  );
}
