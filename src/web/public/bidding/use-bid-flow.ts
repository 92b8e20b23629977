import { useCallback, useEffect, useRef, useState } from 'react';
import type { Me } from '../../../domain/api-types.js';
import { BID_ERROR_CODES } from '../../../domain/bid-rules.js';
import type { BidAnswer } from '../../../domain/bidding.js';
import { startSignIn } from '../../api/auth';
import { isUncertainFailure, newIdempotencyKey, SEND_ERROR_CODES, useBuyNow, usePlaceBid } from '../../api/bids';
import { isApiError } from '../../api/client';
import { type LargeBid, largeBid } from './bid-input';

export type BidAction = { kind: 'bid'; amount: number; maxAmount: number | null } | { kind: 'buyNow' };

/**
 * Why the last try did not get an answer: 'offline' (the browser was offline, nothing was sent) or
 * 'uncertain' (no answer in time: the server may have it). 'Reintentar' resends under the same key.
 */
export type SendFailure = 'offline' | 'uncertain';

/** The confirmation step on screen: what will be sent, under which Idempotency-Key. */
export interface Review {
  action: BidAction;
  key: string;
  failure: SendFailure | null;
  /** A bid or maximum far above the price: 'Confirmar puja' first asks once more ('check'). */
  large: LargeBid | null;
  step: 'review' | 'check';
}

/** A refusal to show beside the form: the server's Spanish message and, for a 400, its field messages. */
export interface Refusal {
  kind: BidAction['kind'];
  code: string;
  message: string;
  fields: Record<string, string>;
}

interface BidFlowOptions {
  auctionId: string;
  me: Me | null | undefined;
  /** The price a bid is compared with for the second look: the current price, or the starting one. */
  referencePrice: number;
  onBidAnswer: (answer: BidAnswer, action: Extract<BidAction, { kind: 'bid' }>) => void;
  onBought: () => void;
}

/**
 * One bid from 'Pujar' to the answer: sign-in first (back to this page), the profile when it is
 * incomplete (then on to the same bid), the review step, then the POST. A double press sends one
 * request, and a retry after no answer reuses the attempt's key, so the server records one bid.
 */
export function useBidFlow({ auctionId, me, referencePrice, onBidAnswer, onBought }: BidFlowOptions) {
  const placeBid = usePlaceBid(auctionId);
  const buyNow = useBuyNow(auctionId);
  const [review, setReview] = useState<Review | null>(null);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  /** The action waiting for the profile form; `confirmed` when the user had already confirmed it. */
  const [profileFor, setProfileFor] = useState<{ action: BidAction; confirmed: boolean } | null>(null);
  const [isProfileOpen, setProfileOpen] = useState(false);
  const inFlight = useRef(false);
  // Set in the click that sends, so the review locks at once: a mutation's isPending reaches the
  // page a moment later (TanStack Query notifies on a timer), and an Escape in that moment would
  // have closed the review with the bid on its way.
  const [isStarting, setStarting] = useState(false);
  const isSending = isStarting || placeBid.isPending || buyNow.isPending;

  const send = useCallback(
    (current: Review) => {
      if (inFlight.current) return;
      inFlight.current = true;
      setStarting(true);
      setRefusal(null);
      const settle = () => {
        inFlight.current = false;
        setStarting(false);
      };
      const onError = (error: unknown) => {
        settle();
        if (isApiError(error) && error.code === SEND_ERROR_CODES.offline) {
          setReview({ ...current, failure: 'offline' });
          return;
        }
        if (isUncertainFailure(error)) {
          setReview({ ...current, failure: 'uncertain' });
          return;
        }
        setReview(null);
        if (isApiError(error) && error.status === 401) {
          startSignIn();
          return;
        }
        if (isApiError(error) && error.code === BID_ERROR_CODES.profileIncomplete) {
          setProfileFor({ action: current.action, confirmed: true });
          setProfileOpen(true);
          return;
        }
        setRefusal({
          kind: current.action.kind,
          code: isApiError(error) ? error.code : 'UNKNOWN',
          message: isApiError(error) ? error.message : '',
          fields: isApiError(error) ? error.fields : {},
        });
      };
      const { action } = current;
      if (action.kind === 'bid') {
        placeBid.mutate(
          { amount: action.amount, maxAmount: action.maxAmount, key: current.key },
          {
            onSuccess: (answer) => {
              settle();
              setReview(null);
              onBidAnswer(answer, action);
            },
            onError,
          },
        );
      } else {
        buyNow.mutate(
          { key: current.key },
          {
            onSuccess: () => {
              settle();
              setReview(null);
              onBought();
            },
            onError,
          },
        );
      }
    },
    [placeBid, buyNow, onBidAnswer, onBought],
  );

  /** 'Pujar' or 'Comprar ahora': sign in, complete the profile, or open the review. */
  const start = useCallback(
    (action: BidAction) => {
      setRefusal(null);
      if (!me) {
        startSignIn();
        return;
      }
      if (!me.profileComplete) {
        setProfileFor({ action, confirmed: false });
        setProfileOpen(true);
        return;
      }
      setReview(newReview(action, referencePrice));
    },
    [me, referencePrice],
  );

  /**
   * One tap on the live page's 'Pujar $920': exactly this action, sent at once under a new key, no
   * review (the button showed the amount). Signed out: sign in and come back; an incomplete profile:
   * the form, then this same action. A tap while one is on its way does nothing.
   */
  const bidNow = useCallback(
    (action: BidAction) => {
      if (inFlight.current) return;
      setRefusal(null);
      if (!me) {
        startSignIn();
        return;
      }
      if (!me.profileComplete) {
        setProfileFor({ action, confirmed: true });
        setProfileOpen(true);
        return;
      }
      // No second look: the amount is the one the button showed, not a typed one.
      send({ action, key: newIdempotencyKey(), failure: null, large: null, step: 'review' });
    },
    [me, send],
  );

  // The profile form closed: saved (me says complete, it refetched before closing) → carry on; else drop it.
  useEffect(() => {
    if (isProfileOpen || !profileFor) return;
    setProfileFor(null);
    if (!me?.profileComplete) return;
    const next = newReview(profileFor.action, referencePrice);
    if (profileFor.confirmed) send(next);
    else setReview(next);
  }, [isProfileOpen, profileFor, me, send, referencePrice]);

  return {
    review,
    refusal,
    isSending,
    start,
    bidNow,
    /**
     * 'Confirmar puja' / 'Reintentar': sends the reviewed attempt (same key on a retry); a large
     * amount first turns the review into its second look, and only that step's 'Sí' sends.
     */
    confirm: () => {
      if (!review || isSending) return;
      if (review.large && review.step === 'review') setReview({ ...review, step: 'check' });
      else send(review);
    },
    cancelReview: () => {
      if (!isSending && !inFlight.current) setReview(null);
    },
    dismissRefusal: () => setRefusal(null),
    profile: { opened: isProfileOpen, close: () => setProfileOpen(false) },
  };
}

/** A fresh review of `action` under a new key; a bid far above the price is marked for the second look. */
function newReview(action: BidAction, referencePrice: number): Review {
  const large = action.kind === 'bid' ? largeBid(action, referencePrice) : null;
  return { action, key: newIdempotencyKey(), failure: null, large, step: 'review' };
}
