import { Card, Stack, Text, Title } from '@mantine/core';
import { useId } from 'react';
import type { LotView } from '../../../domain/live.js';
import { useMe } from '../../api/me';
import { usePrebidStatus, useSessionPrebids } from '../../api/prebids';
import { useTranslation } from '../../i18n';
import { PrebidBox } from './prebid-box';

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
  return <PrebidBox auctionId={lot.auctionId} auctionName={lot.auction.name} minimum={lot.auction.state.startingPrice} mine={own} signedIn={signedIn} />;
}

/** 'Puja anticipada' on the auction's page, beside the bid panel, while the auction is a show's lot that has not opened. */
export function AuctionPrebid({ auctionId, auctionName, mayTake }: { auctionId: string; auctionName: string; mayTake: boolean }) {
  const { t } = useTranslation();
  const headingId = useId();
  const me = useMe();
  // Only a lot that has not opened can take one: an ordinary auction's page asks nothing more.
  const status = usePrebidStatus(auctionId, mayTake);
  const data = status.data;
  if (!mayTake || me.isPending || !data) return null;
  const mine = data.mine && data.mine.enteredAt === null ? data.mine : null;
  if (!data.open) return null;
  return (
    <Card withBorder radius="lg" padding="lg" component="section" aria-labelledby={headingId} data-testid="auction-prebid">
      <Stack gap="xs">
        <Title order={2} size="h5" id={headingId}>
          {t('prebids.title')}
        </Title>
        {!mine && (
          <Text size="sm" c="dimmed">
            {t('prebids.hint')}
          </Text>
        )}
        <PrebidBox auctionId={auctionId} auctionName={auctionName} minimum={data.minimum} mine={mine} signedIn={Boolean(me.data)} />
      </Stack>
    </Card>
  );
}
