import { Skeleton } from '@mantine/core';
import type { LotView } from '../../../domain/live.js';
import { useMe } from '../../api/me';
import { usePrebidStatus, useSessionPrebids } from '../../api/prebids';
import { LazyPart } from '../../components/lazy-part';
import { useTranslation } from '../../i18n';
import type { PrebidBoxProps } from './prebid-box';

/**
 * The pre-bid form's code (and its strings) is fetched when a lot shows it: most auction pages are
 * not a show's lot waiting to open, and they load none of it (bench/README.md, the weight of the
 * buyers' pages).
 */
const loadBox = () => import('./prebid-box').then((m) => m.PrebidBox);
const loadCard = () => import('./prebid-box').then((m) => m.PrebidCard);

/** A pre-bid part, loaded on demand: a line of its height while it arrives. */
function LazyPrebid({ load, ...props }: PrebidBoxProps & { load: typeof loadBox }) {
  const { t } = useTranslation();
  return (
    <LazyPart
      load={load}
      props={props}
      loading={<Skeleton h={26} w={160} radius="sm" data-testid="prebid-loading" />}
      failedMessage={t('bidding.prebidLoadFailed')}
    />
  );
}

/** Whether a lot still waits to go on the block, as the server decides it (features/prebids/queries.ts lotWaiting). */
export function lotTakesPrebids(lot: LotView): boolean {
  const { state } = lot.auction;
  if (lot.status !== 'queued' || state.status === 'ended' || state.bidCount > 0) return false;
  return state.endTime === null || state.status === 'pending';
}

/** 'Puja anticipada' under one of the live page's upcoming lots (the wide page and the phone's sheet). */
export function UpcomingPrebid({ lot }: { lot: LotView }) {
  const me = useMe();
  const signedIn = Boolean(me.data);
  // One request for the whole show, shared by every upcoming lot.
  const mine = useSessionPrebids(lot.sessionId, signedIn);
  if (me.isPending || !lotTakesPrebids(lot)) return null;
  if (signedIn && mine.isPending) return null;
  const own = mine.data?.items.find((p) => p.auctionId === lot.auctionId && p.enteredAt === null) ?? null;
  return (
    <LazyPrebid
      load={loadBox}
      auctionId={lot.auctionId}
      auctionName={lot.auction.name}
      minimum={lot.auction.state.startingPrice}
      mine={own}
      signedIn={signedIn}
    />
  );
}

/** 'Puja anticipada' on the auction's page, beside the bid panel, while the auction is a show's lot that has not opened. */
export function AuctionPrebid({ auctionId, auctionName, mayTake }: { auctionId: string; auctionName: string; mayTake: boolean }) {
  const me = useMe();
  // Only a lot that has not opened can take one: an ordinary auction's page asks nothing more.
  const status = usePrebidStatus(auctionId, mayTake);
  const data = status.data;
  if (!mayTake || me.isPending || !data) return null;
  const mine = data.mine && data.mine.enteredAt === null ? data.mine : null;
  if (!data.open) return null;
  return <LazyPrebid load={loadCard} auctionId={auctionId} auctionName={auctionName} minimum={data.minimum} mine={mine} signedIn={Boolean(me.data)} />;
}
