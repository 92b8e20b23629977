import { Badge, Group, Stack, Text, Title } from '@mantine/core';
import { useId } from 'react';
import type { LotView } from '../../../domain/live.js';
import { formatMoney } from '../../../domain/money.js';
import { useTranslation } from '../../i18n';
import { AuctionGallery } from '../auction/auction-gallery';
import { BidHistory } from '../bidding/bid-history';
import { BidPanel } from '../bidding/bid-panel';
import { BiddingModals } from '../bidding/bidding-modals';
import { isSold } from './live-view';
import { useLotBidding } from './use-lot-bidding';

interface CurrentLotProps {
  sessionId: string;
  lot: LotView;
  /** The session's company, known to its editors only (they see 'your auction', not the form). */
  companyId: string | null;
  /** Server time minus device time, from the session's detail. */
  offset: number;
}

/**
 * The lot on the block: its photos, and the same bid panel as /auctions/{id}, on the auction's
 * room. Keyed by lot, so a new lot starts with a fresh panel.
 */
export function CurrentLot({ sessionId, lot, companyId, offset }: CurrentLotProps) {
  const { t } = useTranslation();
  const headingId = useId();
  const bidding = useLotBidding({ sessionId, lot, companyId, offset });
  const { state } = bidding;
  const isEnded = state.status === 'ended';
  const sold = isSold(state);

  return (
    <Stack gap="md" component="section" aria-labelledby={headingId} data-testid="current-lot" data-lot-id={lot.id} data-auction-id={lot.auctionId}>
      <Stack gap={4}>
        <Group gap="xs">
          {/* Once its auction closed the lot is no longer on the block: the heading says so, with the outcome. */}
          <Title order={2} size="sm" fw={800} c={isEnded ? undefined : 'red'} tt="uppercase" id={headingId} data-testid="current-lot-heading">
            {t(isEnded ? 'live.current.closedHeading' : 'live.current.heading')}
          </Title>
          <Badge variant="light" color="gray" tt="none">
            {t('live.current.lotNumber', { order: lot.order })}
          </Badge>
          {isEnded && (
            <Badge color={sold ? 'green' : 'gray'} variant={sold ? 'filled' : 'light'} tt="none" size="lg" data-testid="current-lot-outcome">
              {sold ? t('live.results.sold') : t('live.results.unsold')}
            </Badge>
          )}
        </Group>
        <Title order={3} size="h3" style={{ overflowWrap: 'anywhere' }} data-testid="current-lot-name">
          {lot.auction.name}
        </Title>
        {isEnded && sold && (
          <Text size="sm" fw={600} data-testid="current-lot-sold-for">
            {t('live.results.soldFor', { price: formatMoney(state.currentPrice ?? state.startingPrice) })}
          </Text>
        )}
      </Stack>
      {lot.auction.images.length > 0 && <AuctionGallery images={lot.auction.images.map((url) => ({ url, thumbnailUrl: null }))} name={lot.auction.name} />}
      <BidPanel {...bidding.panel} />
      <BidHistory history={bidding.history} myTag={bidding.myTag} offset={bidding.offset} isEnded={bidding.displayStatus === 'ended'} />
      <BiddingModals bidding={bidding} />
    </Stack>
  );
}
