import { Group, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PublicAuction } from '../../../domain/auctions.js';
import type { BidAnswer } from '../../../domain/bidding.js';
import { formatMoney } from '../../../domain/money.js';
import { startSignIn } from '../../api/auth';
import { bidKeys, useAuctionLive, useBidHistory } from '../../api/bids';
import { hasPanelAccess, useMe } from '../../api/me';
import { AuctionStatusBadge } from '../../components/auction-status-badge';
import { ProfileModal } from '../../components/profile-modal';
import { clockOffset } from '../../lib/countdown';
import { AuctionDetails } from './auction-details';
import { AuctionGallery } from './auction-gallery';
import classes from './auction-page.module.css';
import { BidHistory } from './bid-history';
import { BidPanel } from './bid-panel';
import { stateFromAuction } from './live-state';
import { ReviewModal } from './review-modal';
import { type BidAction, useBidFlow } from './use-bid-flow';
import { useLiveNotices } from './use-live-notices';
import { useHasPassed } from './use-server-clock';

/** The 'offline' badge waits this long, so a first connection or a quick reconnection does not flash it. */
const OFFLINE_GRACE_MS = 3000;
/** After the end time passes, ask for the close at these delays until it arrives (the event may be missed). */
const CLOSE_POLL_MS = [1500, 3000, 5000, 10_000] as const;

/** The loaded page: photos, facts, the live price and clock, the bid form, and the history. */
export function AuctionView({ auction, receivedAt }: { auction: PublicAuction; receivedAt: number }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const me = useMe();
  const history = useBidHistory(auction.id);
  const firstPage = history.data?.pages[0];
  const state = firstPage?.state ?? stateFromAuction(auction);
  const offset = clockOffset(state.serverNow, firstPage?.receivedAt ?? receivedAt);
  const myView = firstPage?.me ?? null;
  const myTag = myView?.tag ?? null;
  const isOver = useHasPassed(state.endTime, offset);
  const isRunning = state.status === 'active' || state.status === 'live';

  const notices = useLiveNotices({ auctionId: auction.id, auctionName: auction.name, state, myTag });
  const live = useAuctionLive(auction.id, { onOutbid: (event) => notices.notifyOutbid(event.version, event.currentPrice) });
  const isOffline = useDelayedFlag(!live.isConnected, OFFLINE_GRACE_MS);

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
      notifications.show({
        color: isRaise ? 'blue' : 'green',
        title: t(isRaise ? 'bidding.result.maxRaisedTitle' : 'bidding.result.leadingTitle'),
        message: isRaise
          ? t('bidding.result.maxRaisedMessage', { amount: formatMoney(answer.me.myMaxAmount ?? action.maxAmount ?? action.amount) })
          : t('bidding.result.leadingMessage', { amount: formatMoney(action.amount) }),
      });
    },
    [t, notifyOutbid],
  );
  const onBought = useCallback(() => setOutbidAnswer(null), []);
  const flow = useBidFlow({ auctionId: auction.id, me: me.data, onBidAnswer, onBought });

  // The end passed on the server's clock but the close has not arrived: ask for it a few times.
  useEffect(() => {
    if (!isOver || !isRunning) return;
    let attempt = 0;
    let timer: ReturnType<typeof setTimeout>;
    const poll = () => {
      void queryClient.invalidateQueries({ queryKey: bidKeys.history(auction.id) });
      attempt += 1;
      timer = setTimeout(poll, CLOSE_POLL_MS[Math.min(attempt, CLOSE_POLL_MS.length - 1)]);
    };
    timer = setTimeout(poll, CLOSE_POLL_MS[0]);
    return () => clearTimeout(timer);
  }, [isOver, isRunning, queryClient, auction.id]);

  const isOwnAuction = hasPanelAccess(me.data) && me.data.companyId === auction.companyId;
  const displayStatus = isOver && isRunning ? 'ended' : state.status;

  return (
    <div className={classes.layout}>
      <div className={classes.areaGallery}>
        <AuctionGallery images={galleryImages(auction)} name={auction.name} />
      </div>
      <Stack gap={6} className={classes.areaSummary}>
        <Group gap="xs">
          <AuctionStatusBadge status={displayStatus} size="md" />
          {auction.categoryName && (
            <Text size="sm" c="dimmed">
              {auction.categoryName}
            </Text>
          )}
        </Group>
        <Title order={1} size="h2" style={{ overflowWrap: 'anywhere' }}>
          {auction.name}
        </Title>
        {auction.companyName && (
          <Text size="sm" c="dimmed">
            {t('bidding.details.seller')}: {auction.companyName}
          </Text>
        )}
      </Stack>
      <div className={classes.bid}>
        <BidPanel
          auctionName={auction.name}
          state={state}
          offset={offset}
          me={me.isPending ? undefined : (me.data ?? null)}
          myView={myView}
          isOver={isOver}
          isOwnAuction={isOwnAuction}
          isOffline={isOffline}
          isOutbid={notices.isOutbid}
          outbidAmount={outbidAnswer?.version === state.version ? outbidAnswer.amount : null}
          onDismissOutbid={notices.dismissOutbid}
          extendedTo={notices.extendedTo}
          refusal={flow.refusal}
          onDismissRefusal={flow.dismissRefusal}
          isSending={flow.isSending}
          formKey={formKey}
          onBid={(values) => flow.start({ kind: 'bid', ...values })}
          onBuyNow={() => flow.start({ kind: 'buyNow' })}
          onSignIn={startSignIn}
        />
      </div>
      <div className={classes.areaDetails}>
        <AuctionDetails auction={auction} />
      </div>
      <div className={classes.areaHistory}>
        <BidHistory history={history} myTag={myTag} offset={offset} />
      </div>
      <ReviewModal
        review={flow.review}
        auctionName={auction.name}
        buyNowPrice={state.buyNowPrice}
        isSending={flow.isSending}
        onConfirm={flow.confirm}
        onCancel={flow.cancelReview}
      />
      <ProfileModal opened={flow.profile.opened} onClose={flow.profile.close} me={me.data ?? null} />
    </div>
  );
}

/** imageDetails carries the thumbnails; older records only have the image URLs. */
function galleryImages(auction: PublicAuction) {
  if (auction.imageDetails?.length) return auction.imageDetails;
  return (auction.images ?? []).map((url) => ({ url, thumbnailUrl: null }));
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
