import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { BID_ERROR_CODES } from '../../../domain/bid-rules.js';
import type { AuctionLiveState, BidAnswer } from '../../../domain/bidding.js';
import { formatMoney } from '../../../domain/money.js';
import { CHAT_STANDING_EVENT } from '../../../domain/realtime.js';
import type { MyUnpaidAnswer } from '../../../domain/unpaid.js';
import { startSignIn } from '../../api/auth';
import { bidKeys, useAuctionLive, useBidHistory } from '../../api/bids';
import { hasPanelAccess, useMe } from '../../api/me';
import { useSocketEvent } from '../../api/socket';
import { useTranslation } from '../../i18n';
import { clockOffset } from '../../lib/countdown';
import type { BidPanelProps } from './bid-panel';
import { stepAt } from './bid-steps';
import { pickState } from './live-state';
import { myUnpaidKey, useMyUnpaid } from './unpaid-warning';
import { type BidAction, useBidFlow } from './use-bid-flow';
import { type LiveNotice, useLiveNotices } from './use-live-notices';
import { useHasPassed } from './use-server-clock';

/** The 'offline' badge waits this long, so a first connection or a quick reconnection does not flash it. */
const OFFLINE_GRACE_MS = 3000;
/** After the end time passes, ask for the close at these delays until it arrives (the event may be missed). */
const CLOSE_POLL_MS = [1500, 3000, 5000, 10_000] as const;

export interface BiddingOptions {
  auctionId: string;
  auctionName: string;
  /** The auction's company: its own sellers and admins see 'your auction' instead of the form. */
  companyId: string | null;
  /** What the page knew before the bid history arrived (see pickState). */
  source: { state: AuctionLiveState; offset: number; isAuthoritative: boolean };
  /** The end passed but the close has not arrived: called with each poll for it. */
  onOverdue?: () => void;
  /** Given (the phone's show): the notices come here instead of as toasts (use-live-notices.ts). */
  onNotice?: (notice: LiveNotice) => void;
}

/**
 * Everything behind the bid panel of one auction, shared by /auctions/{id} and the live page: the
 * auction's room, the history, the server clock, the notices (outbid, extended, closed), and the
 * flow from 'Pujar' to the answer. Returns the panel's props and the modals' props.
 */
export function useBidding({ auctionId, auctionName, companyId, source, onOverdue, onNotice }: BiddingOptions) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const me = useMe();
  const history = useBidHistory(auctionId);
  const firstPage = history.data?.pages[0];
  const { state, offset } = pickState(
    firstPage ? { state: firstPage.state, offset: clockOffset(firstPage.state.serverNow, firstPage.receivedAt) } : null,
    source,
  );
  const myView = firstPage?.me ?? null;
  const myTag = myView?.tag ?? null;
  const isOver = useHasPassed(state.endTime, offset);
  const isRunning = state.status === 'active' || state.status === 'live';

  // Blocked by the seller's company: no bid controls, and no 'outbid' as the block withdraws the
  // viewer's bids. The buyer's own room says so at once ('chatStanding', before the withdrawal's
  // new price), written straight into the cache the notices read.
  const standing = useMyUnpaid(auctionId, Boolean(me.data));
  const isBlocked = standing.data?.blocked ?? false;
  useSocketEvent(CHAT_STANDING_EVENT, (event) => {
    if (!event || (companyId !== null && event.companyId !== companyId)) return;
    queryClient.setQueryData<MyUnpaidAnswer>(myUnpaidKey(auctionId), (d) => (d ? { ...d, blocked: event.isBlocked } : d));
    void queryClient.invalidateQueries({ queryKey: myUnpaidKey(auctionId) });
  });
  const isBlockedNow = useCallback(() => queryClient.getQueryData<MyUnpaidAnswer>(myUnpaidKey(auctionId))?.blocked === true, [queryClient, auctionId]);

  const panelRef = useRef<HTMLDivElement>(null);
  const shouldToast = useCallback(() => !isPhone() || !isInView(panelRef.current), []);
  const isPanelInView = useCallback(() => isInView(panelRef.current), []);
  const notices = useLiveNotices({ auctionId, auctionName, state, myTag, shouldToast, isPanelInView, onNotice, isBlocked: isBlockedNow });
  const live = useAuctionLive(auctionId, { onOutbid: (event) => notices.notifyOutbid(event.version, event.currentPrice) });
  const isBrowserOnline = useBrowserOnline();
  const isLiveDown = useDelayedFlag(!live.isConnected, OFFLINE_GRACE_MS);
  /** The browser's own word counts at once; a dropped socket only after the grace. */
  const offline: BidPanelProps['offline'] = !isBrowserOnline ? 'browser' : isLiveDown ? 'live' : null;

  const [formKey, setFormKey] = useState(0);
  /** My bid that another maximum answered at once; its wording holds while that state stands. */
  const [outbidAnswer, setOutbidAnswer] = useState<{ amount: number; version: number } | null>(null);
  const { notifyOutbid } = notices;
  const onBidAnswer = useCallback(
    (answer: BidAnswer, action: Extract<BidAction, { kind: 'bid' }>) => {
      setFormKey((k) => k + 1);
      if (answer.outcome === 'outbid') {
        setOutbidAnswer({ amount: action.amount, version: answer.state.version });
        notifyOutbid(answer.state.version, answer.state.currentPrice);
        return;
      }
      const isRaise = answer.outcome === 'maxRaised';
      if (onNotice) {
        onNotice(
          isRaise ? { kind: 'maxRaised', amount: answer.me.myMaxAmount ?? action.maxAmount ?? action.amount } : { kind: 'winning', amount: action.amount },
        );
        return;
      }
      // The panel shows 'Vas ganando' (and the maximum) inline.
      if (!shouldToast()) return;
      notifications.show({
        color: isRaise ? 'blue' : 'green',
        title: t(isRaise ? 'bidding.result.maxRaisedTitle' : 'bidding.result.leadingTitle'),
        message: isRaise
          ? t('bidding.result.maxRaisedMessage', { amount: formatMoney(answer.me.myMaxAmount ?? action.maxAmount ?? action.amount) })
          : t('bidding.result.leadingMessage', { amount: formatMoney(action.amount) }),
      });
    },
    [t, notifyOutbid, shouldToast, onNotice],
  );
  const onBought = useCallback(() => setOutbidAnswer(null), []);
  // The price the panel shows: what a bid ten times over is measured against.
  const hasBids = state.currentPrice !== null && state.bidCount > 0;
  const referencePrice = hasBids ? (state.currentPrice ?? state.startingPrice) : state.startingPrice;
  const flow = useBidFlow({ auctionId, me: me.data, referencePrice, onBidAnswer, onBought });
  // A bid refused because of a block this page had not heard of: ask again, and the controls go.
  const isRefusedAsBlocked = flow.refusal?.code === BID_ERROR_CODES.blocked;
  useEffect(() => {
    if (isRefusedAsBlocked) void queryClient.invalidateQueries({ queryKey: myUnpaidKey(auctionId) });
  }, [isRefusedAsBlocked, queryClient, auctionId]);

  // The end passed on the server's clock but the close has not arrived: ask for it a few times.
  const overdueRef = useRef(onOverdue);
  overdueRef.current = onOverdue;
  useEffect(() => {
    if (!isOver || !isRunning) return;
    let attempt = 0;
    let timer: ReturnType<typeof setTimeout>;
    const poll = () => {
      void queryClient.invalidateQueries({ queryKey: bidKeys.history(auctionId) });
      overdueRef.current?.();
      attempt += 1;
      timer = setTimeout(poll, CLOSE_POLL_MS[Math.min(attempt, CLOSE_POLL_MS.length - 1)]);
    };
    timer = setTimeout(poll, CLOSE_POLL_MS[0]);
    return () => clearTimeout(timer);
  }, [isOver, isRunning, queryClient, auctionId]);

  const isOwnAuction = hasPanelAccess(me.data) && companyId !== null && me.data.companyId === companyId;

  const panel: BidPanelProps = {
    auctionName,
    state,
    offset,
    me: me.isPending ? undefined : (me.data ?? null),
    myView,
    isOver,
    isOwnAuction,
    isBlocked,
    offline,
    isOutbid: notices.isOutbid,
    outbidAmount: outbidAnswer?.version === state.version ? outbidAnswer.amount : null,
    onDismissOutbid: notices.dismissOutbid,
    extendedTo: notices.extendedTo,
    refusal: flow.refusal,
    onDismissRefusal: flow.dismissRefusal,
    isSending: flow.isSending,
    formKey,
    onBid: (values) => flow.start({ kind: 'bid', ...values }),
    onBuyNow: () => flow.start({ kind: 'buyNow' }),
    onSignIn: startSignIn,
    panelRef,
  };

  return {
    state,
    offset,
    history,
    myTag,
    isOver,
    isBlocked,
    /** 'ended' as soon as the clock passes the end, before the close arrives. */
    displayStatus: isOver && isRunning ? ('ended' as const) : state.status,
    panel,
    /** One tap: bids exactly `amount` at once (use-bid-flow.ts bidNow). */
    bidNow: (amount: number) => flow.bidNow({ kind: 'bid', amount, maxAmount: null }),
    review: {
      review: flow.review,
      auctionName,
      referencePrice,
      isStartingPrice: !hasBids,
      // The band of the current price: what the automatic bid steps by from here.
      increment: stepAt(referencePrice, state),
      buyNowPrice: state.buyNowPrice,
      isSending: flow.isSending,
      onConfirm: flow.confirm,
      onCancel: flow.cancelReview,
    },
    profile: { opened: flow.profile.opened, onClose: flow.profile.close, me: me.data ?? null },
  };
}

export type Bidding = ReturnType<typeof useBidding>;

/** A phone-width screen (Mantine's `sm` breakpoint), where a toast covers the page's top. */
function isPhone(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('(max-width: 48em)').matches;
}

/** Whether enough of the panel is on screen to read what it says: 120 px of it (all of it, if shorter), not an edge. */
function isInView(el: HTMLElement | null): boolean {
  if (!el) return false;
  const box = el.getBoundingClientRect();
  const visible = Math.min(box.bottom, window.innerHeight) - Math.max(box.top, 0);
  return box.height > 0 && visible >= Math.min(120, box.height);
}

/** True once `value` has stayed true for `delayMs`; false at once when it turns false. */
function useDelayedFlag(value: boolean, delayMs: number): boolean {
  const [flag, setFlag] = useState(false);
  useEffect(() => {
    if (!value) {
      setFlag(false);
      return;
    }
    const timer = setTimeout(() => setFlag(true), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return flag;
}

function subscribeOnline(onChange: () => void): () => void {
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  return () => {
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
  };
}

/** navigator.onLine, kept current by the 'online' and 'offline' events (true where it is unknown). */
function useBrowserOnline(): boolean {
  return useSyncExternalStore(
    subscribeOnline,
    () => navigator.onLine !== false,
    () => true,
  );
}
