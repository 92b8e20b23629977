import { notifications } from '@mantine/notifications';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { AuctionLiveState } from '../../../domain/bidding.js';
import { formatMoney } from '../../../domain/money.js';
import { useTranslation } from '../../i18n';
import { liveTransitions } from './live-state';

/** How long '¡Se extendió el tiempo!' stays on screen. */
const EXTENDED_NOTICE_MS = 8000;
/**
 * How long the close's notice floats over the page. '¡Ganaste!' stays a little longer, then leaves
 * (or is closed): the bid panel keeps saying it, and the notice must not sit over the show.
 */
const ENDED_NOTICE_MS = 8000;
const WON_NOTICE_MS = 12_000;

/**
 * A notice told over the phone's show instead of as a toast: being outbid, leading after a bid, the
 * time extended, and the close (won, lost by a buyer who led, or sold/unsold for the rest).
 */
export type LiveNotice =
  | { kind: 'outbid'; price: number | null }
  | { kind: 'winning'; amount: number }
  | { kind: 'maxRaised'; amount: number }
  | { kind: 'extended' }
  | { kind: 'won'; price: number }
  | { kind: 'lost'; price: number }
  | { kind: 'closed'; price: number | null };

/**
 * What the viewer hears about as the state moves: being outbid (from the private `outbid` event, a
 * bid answer, or the leader changing, whichever comes first, once per version), the end time being
 * extended, and the close (with '¡Ganaste!' for the winner).
 */
export function useLiveNotices(opts: {
  auctionId: string;
  auctionName: string;
  state: AuctionLiveState;
  myTag: string | null;
  /** False when the bid panel already tells it in view (a phone): one notice per event, not two. */
  shouldToast: () => boolean;
  /** The bid panel is on screen: the close is told there alone (on any screen), nothing floats over the show. */
  isPanelInView: () => boolean;
  /** Given: every notice goes here (the phone's show tells them over the video), never as a toast. */
  onNotice?: (notice: LiveNotice) => void;
  /** The seller blocked the viewer: the price falling as their bids are withdrawn is not being outbid. */
  isBlocked?: () => boolean;
}) {
  const { auctionId, auctionName, state, myTag } = opts;
  const shouldToastRef = useRef(opts.shouldToast);
  shouldToastRef.current = opts.shouldToast;
  const isPanelInViewRef = useRef(opts.isPanelInView);
  isPanelInViewRef.current = opts.isPanelInView;
  const onNoticeRef = useRef(opts.onNotice);
  onNoticeRef.current = opts.onNotice;
  const isBlockedRef = useRef(opts.isBlocked);
  isBlockedRef.current = opts.isBlocked;
  /** The viewer led at some point on this page: a close won by someone else is 'lost' for them. */
  const hasLed = useRef(false);
  const { t } = useTranslation();
  const [isOutbid, setOutbid] = useState(false);
  const [extendedTo, setExtendedTo] = useState<number | null>(null);
  const previous = useRef<AuctionLiveState | null>(null);
  const outbidVersion = useRef(0);
  const latest = useRef(state);
  latest.current = state;

  const notifyOutbid = useCallback(
    (version: number, price: number | null) => {
      // Once it has ended, the close says who won; an outbid notice would only contradict it.
      if (version <= outbidVersion.current || latest.current.status === 'ended' || isBlockedRef.current?.()) return;
      outbidVersion.current = version;
      setOutbid(true);
      hasLed.current = true;
      if (onNoticeRef.current) {
        onNoticeRef.current({ kind: 'outbid', price });
        return;
      }
      if (!shouldToastRef.current()) return;
      notifications.show({
        id: `outbid-${auctionId}`,
        color: 'orange',
        title: t('bidding.outbid.title'),
        message: t('bidding.outbid.notification', { name: auctionName, price: formatMoney(price ?? 0) }),
      });
    },
    [auctionId, auctionName, t],
  );

  useEffect(() => {
    const prev = previous.current;
    previous.current = state;
    const change = liveTransitions(prev, state, myTag);
    if (myTag && state.leaderTag === myTag) {
      setOutbid(false);
      hasLed.current = true;
    }
    if (change.outbid) notifyOutbid(state.version, state.currentPrice);
    if (change.extended) {
      setExtendedTo(state.endTime);
      onNoticeRef.current?.({ kind: 'extended' });
    }
    if (change.ended) {
      setExtendedTo(null);
      setOutbid(false);
      const onNotice = onNoticeRef.current;
      if (onNotice) {
        const price = state.currentPrice ?? state.startingPrice;
        if (change.won) onNotice({ kind: 'won', price });
        else if (hasLed.current && state.bidCount > 0) onNotice({ kind: 'lost', price });
        else onNotice({ kind: 'closed', price: state.bidCount > 0 ? price : null });
        return;
      }
      notifications.hide(`outbid-${auctionId}`);
      if (isPanelInViewRef.current()) return;
      const price = formatMoney(state.currentPrice ?? 0);
      notifications.show({
        id: `ended-${auctionId}`,
        color: change.won ? 'green' : 'gray',
        title: change.won ? t('bidding.ended.youWon') : t('bidding.ended.title'),
        message: change.won
          ? t('bidding.ended.youWonMessage', { name: auctionName, price })
          : state.winnerName
            ? t('bidding.ended.winner', { name: state.winnerName, price })
            : t('bidding.ended.noWinner'),
        autoClose: change.won ? WON_NOTICE_MS : ENDED_NOTICE_MS,
        withCloseButton: true,
      });
    }
  }, [state, myTag, notifyOutbid, auctionId, auctionName, t]);

  useEffect(() => {
    if (extendedTo === null) return;
    const timer = setTimeout(() => setExtendedTo(null), EXTENDED_NOTICE_MS);
    return () => clearTimeout(timer);
  }, [extendedTo]);

  return { isOutbid, dismissOutbid: () => setOutbid(false), notifyOutbid, extendedTo };
}
