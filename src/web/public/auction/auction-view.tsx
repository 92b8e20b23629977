import { Anchor, Group, Stack, Text, Title } from '@mantine/core';
import type { PublicAuction } from '../../../domain/auctions.js';
import { mayTakePrebids } from '../../../domain/bid-rules.js';
import { AuctionStatusBadge } from '../../components/auction-status-badge';
import { ShareButton } from '../../components/share-button';
import { storeHref, storeOf } from '../../components/store-link';
import { useTranslation } from '../../i18n';
import { clockOffset } from '../../lib/countdown';
import { BidHistory } from '../bidding/bid-history';
import { BidPanel } from '../bidding/bid-panel';
import { BiddingModals } from '../bidding/bidding-modals';
import { stateFromAuction } from '../bidding/live-state';
import { useBidding } from '../bidding/use-bidding';
import { AuctionPrebid } from '../prebids/prebid-places';
import { usePrebidNotices } from '../prebids/use-prebid-notices';
import { AuctionDetails } from './auction-details';
import { AuctionGallery } from './auction-gallery';
import classes from './auction-page.module.css';

/** The loaded page: photos, facts, the live price and clock, the bid form, and the history. */
export function AuctionView({ auction, receivedAt }: { auction: PublicAuction; receivedAt: number }) {
  const { t } = useTranslation();
  usePrebidNotices();
  const store = storeOf(auction);
  const bidding = useBidding({
    auctionId: auction.id,
    auctionName: auction.name,
    companyId: auction.companyId,
    // The record stands in for the live state until the bid history (which carries it) arrives.
    source: { state: stateFromAuction(auction), offset: clockOffset(auction.serverNow, receivedAt), isAuthoritative: false },
  });

  return (
    <div className={classes.layout}>
      <div className={classes.areaGallery}>
        <AuctionGallery images={galleryImages(auction)} name={auction.name} />
      </div>
      <Stack gap={6} className={classes.areaSummary}>
        <Group gap="xs">
          <AuctionStatusBadge status={bidding.displayStatus} size="md" />
          {auction.categoryName && (
            <Text size="sm" c="dimmed">
              {auction.categoryName}
            </Text>
          )}
        </Group>
        <Title order={1} size="h2" style={{ overflowWrap: 'anywhere' }}>
          {auction.name}
        </Title>
        {store ? (
          <Text size="sm" c="dimmed">
            {t('bidding.details.seller')}:{' '}
            <Anchor href={storeHref(store)} inherit c="dimmed" td="underline" data-testid="seller-store-link">
              {auction.companyName || store.name}
            </Anchor>
          </Text>
        ) : (
          auction.companyName && (
            <Text size="sm" c="dimmed">
              {t('bidding.details.seller')}: {auction.companyName}
            </Text>
          )
        )}
        <ShareButton title={auction.name} url={`/auctions/${auction.id}`} />
      </Stack>
      <div className={classes.bid}>
        <Stack gap="md">
          <BidPanel {...bidding.panel} />
          <AuctionPrebid auctionId={auction.id} auctionName={auction.name} mayTake={mayTakePrebids(bidding.state)} />
        </Stack>
      </div>
      <div className={classes.areaDetails}>
        <AuctionDetails auction={auction} />
      </div>
      <div className={classes.areaHistory}>
        <BidHistory history={bidding.history} myTag={bidding.myTag} offset={bidding.offset} isEnded={bidding.displayStatus === 'ended'} />
      </div>
      <BiddingModals bidding={bidding} />
    </div>
  );
}

/** imageDetails carries the thumbnails; older records only have the image URLs. */
function galleryImages(auction: PublicAuction) {
  if (auction.imageDetails?.length) return auction.imageDetails;
  return (auction.images ?? []).map((url) => ({ url, thumbnailUrl: null }));
}
