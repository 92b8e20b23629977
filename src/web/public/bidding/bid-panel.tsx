import { Alert, Badge, Button, Card, CloseButton, Divider, Group, Loader, Stack, Text } from '@mantine/core';
import type { Ref } from 'react';
import type { Me } from '../../../domain/api-types.js';
import { BID_ERROR_CODES, canBuyNow } from '../../../domain/bid-rules.js';
import type { AuctionLiveState, BidderView } from '../../../domain/bidding.js';
import { formatMoney } from '../../../domain/money.js';
import { AlertIcon, CashIcon, CheckIcon, ClockIcon, GavelIcon, TrophyIcon } from '../../components/icons';
import { useTranslation } from '../../i18n';
import { formatDate } from '../../lib/dates';
import { timerFormatHint, timerFormatLabel, timerFormatOf } from '../../lib/timer-format';
import { PURCHASES_PATH } from '../../routes';
import { AuctionCountdown } from './auction-countdown';
import { BidForm } from './bid-form';
import type { BidFormValues } from './bid-input';
import { nextMinimumOf } from './bid-steps';
import { UnpaidWarning } from './unpaid-warning';
import type { Refusal } from './use-bid-flow';

export interface BidPanelProps {
  auctionName: string;
  state: AuctionLiveState;
  offset: number;
  /** undefined while /api/me loads, null signed out. */
  me: Me | null | undefined;
  myView: BidderView | null;
  /** The end time has passed on the server's clock (the close itself may not have arrived yet). */
  isOver: boolean;
  isOwnAuction: boolean;
  /** The seller's company blocked the viewer: no form, no 'Comprar ya' (UnpaidWarning says why). */
  isBlocked: boolean;
  /** 'browser': the device is offline (no bid can go out); 'live': the live connection is down, reconnecting. */
  offline: 'browser' | 'live' | null;
  isOutbid: boolean;
  /** My own bid of this amount was answered at once by another maximum. */
  outbidAmount: number | null;
  onDismissOutbid: () => void;
  extendedTo: number | null;
  refusal: Refusal | null;
  onDismissRefusal: () => void;
  isSending: boolean;
  formKey: number;
  onBid: (values: BidFormValues) => void;
  onBuyNow: () => void;
  onSignIn: () => void;
  /** The card itself: on a phone, a notice it already shows inline is not repeated as a toast while it is in view. */
  panelRef?: Ref<HTMLDivElement>;
}

/** The price, the clock and the action: everything a bidder looks at, in one card. */
export function BidPanel(props: BidPanelProps) {
  const { t } = useTranslation();
  const { state, me, myView, isOver } = props;
  const myTag = myView?.tag ?? null;
  const hasBids = state.currentPrice !== null && state.bidCount > 0;
  const isEnded = state.status === 'ended';
  const isPending = state.status === 'pending';
  const isRunning = !isEnded && !isPending && !isOver;
  /** Who may bid here: not the seller's own people, not a buyer the seller blocked. */
  const mayBid = !props.isOwnAuction && !props.isBlocked;
  const isLeading = myTag !== null && state.leaderTag === myTag;
  const hasWon = isEnded && myTag !== null && state.winnerTag === myTag;
  const nextMinimum = nextMinimumOf(state);

  return (
    <Card ref={props.panelRef} withBorder radius="lg" padding="lg" shadow="sm" component="section" aria-label={t('bidding.form.title')} data-testid="bid-panel">
      <Stack gap="md">
        <Stack gap={2}>
          <Text size="sm" c="dimmed" data-testid="price-label">
            {isEnded && hasBids ? t('bidding.price.final') : hasBids ? t('bidding.price.current') : t('publicAuction.startingPrice')}
          </Text>
          <Group gap="sm" align="baseline" wrap="wrap">
            <Text fz={32} fw={800} lh={1.1} data-testid="current-price" aria-live="polite">
              {formatMoney(hasBids ? (state.currentPrice ?? 0) : state.startingPrice)}
            </Text>
            <Text size="sm" c="dimmed" data-testid="bid-count">
              {state.bidCount > 0
                ? t('bidding.price.bids', { count: state.bidCount })
                : isEnded || isOver
                  ? t('bidding.price.noBidsEnded')
                  : t('bidding.price.noBids')}
            </Text>
          </Group>
          {isRunning && (
            <Text size="sm" fw={500} data-testid="next-minimum">
              {t('bidding.price.nextMinimum', { amount: formatMoney(nextMinimum) })}
            </Text>
          )}
        </Stack>

        {props.offline === 'browser' && (
          <Alert color="red" variant="light" icon={<AlertIcon />} title={t('bidding.offline.title')} role="status" data-testid="offline">
            {t('bidding.offline.message')}
          </Alert>
        )}
        {props.offline === 'live' && (
          <Badge variant="light" color="gray" tt="none" fw={500} role="status" data-testid="offline">
            {t('bidding.live.offline')}
          </Badge>
        )}

        {!isPending && <AuctionCountdown endTime={state.endTime} offset={props.offset} isEnded={isEnded} />}
        {!isEnded && <TimerFormatLine state={state} />}

        {props.extendedTo !== null && isRunning && (
          <Alert color="oro" variant="light" icon={<ClockIcon />} title={t('bidding.extended.title')} role="status" data-testid="extended-notice">
            {t('bidding.extended.message', { time: formatDate(props.extendedTo, 'HH:mm:ss') })}
          </Alert>
        )}

        {isLeading && !isEnded && (
          <Alert color="green" variant="light" icon={<CheckIcon />} title={t('bidding.leader.leading')} data-testid="leading-notice">
            {myView?.myMaxAmount != null && (
              <Stack gap={0}>
                <Text size="sm" fw={600}>
                  {t('bidding.leader.myMax', { amount: formatMoney(myView.myMaxAmount) })}
                </Text>
                <Text size="xs" c="dimmed">
                  {t('bidding.leader.myMaxHint')}
                </Text>
              </Stack>
            )}
          </Alert>
        )}

        {props.isOutbid && isRunning && !isLeading && (
          <Alert
            color="orange"
            variant="light"
            icon={<AlertIcon />}
            role="alert"
            title={props.outbidAmount !== null ? t('bidding.result.outbidTitle') : t('bidding.outbid.title')}
            data-testid="outbid-notice"
            withCloseButton={false}
          >
            <Group justify="space-between" wrap="nowrap" align="flex-start">
              <Text size="sm">
                {props.outbidAmount !== null
                  ? t('bidding.result.outbidMessage', { amount: formatMoney(props.outbidAmount), price: formatMoney(state.currentPrice ?? 0) })
                  : t('bidding.outbid.message', { price: formatMoney(state.currentPrice ?? 0), next: formatMoney(nextMinimum) })}
              </Text>
              <CloseButton size="sm" aria-label={t('bidding.outbid.dismiss')} onClick={props.onDismissOutbid} />
            </Group>
          </Alert>
        )}

        {isEnded && <EndedNotice state={state} hasWon={hasWon} auctionName={props.auctionName} />}
        {isOver && !isEnded && !isPending && (
          <Group gap="xs" role="status" data-testid="closing">
            <Loader size="xs" aria-hidden="true" />
            <Text size="sm" c="dimmed">
              {t('bidding.countdown.closing')}
            </Text>
          </Group>
        )}

        {isPending && (
          <Alert color="gray" variant="light" icon={<ClockIcon />} title={t('bidding.pending.title')} data-testid="pending-notice">
            {t('bidding.pending.hint')}
          </Alert>
        )}

        {!isEnded && !props.isOwnAuction && <UnpaidWarning auctionId={state.id} signedIn={Boolean(me)} />}
        {props.refusal && (
          <Alert
            color={props.refusal.code === BID_ERROR_CODES.tooLow ? 'orange' : 'red'}
            variant="light"
            role="alert"
            title={props.refusal.kind === 'buyNow' ? t('bidding.buyNow.failedTitle') : t('bidding.result.failedTitle')}
            withCloseButton
            closeButtonLabel={t('common.close')}
            onClose={props.onDismissRefusal}
            data-testid="bid-refusal"
          >
            {props.refusal.message || t('common.genericError')}
          </Alert>
        )}

        {isRunning && <Divider />}
        {isRunning && props.isOwnAuction && (
          <Text size="sm" c="dimmed" data-testid="own-auction">
            {t('bidding.ownAuction')}
          </Text>
        )}
        {isRunning && mayBid && me === null && (
          <Stack gap="xs">
            <Button size="lg" fullWidth leftSection={<GavelIcon />} onClick={props.onSignIn} data-testid="sign-in-to-bid">
              {t('bidding.form.signIn')}
            </Button>
            <Text size="xs" c="dimmed" ta="center">
              {t('bidding.form.signInHint')}
            </Text>
          </Stack>
        )}
        {isRunning && mayBid && me !== null && (
          <Stack gap="xs">
            {me && !me.profileComplete && (
              <Text size="sm" c="dimmed">
                {t('bidding.form.profileHint')}
              </Text>
            )}
            <BidForm
              key={props.formKey}
              nextMinimum={nextMinimum}
              minIncrement={state.minIncrement}
              incrementBands={state.incrementBands}
              isSending={props.isSending}
              disabled={me === undefined}
              serverFields={props.refusal?.kind === 'bid' ? props.refusal.fields : {}}
              onSubmit={props.onBid}
            />
          </Stack>
        )}
        {isRunning && mayBid && canBuyNow(state) && state.buyNowPrice !== null && (
          <Button
            variant="outline"
            size="md"
            fullWidth
            leftSection={<CashIcon />}
            onClick={me === null ? props.onSignIn : props.onBuyNow}
            disabled={me === undefined}
            h="auto"
            mih={42}
            py={8}
            styles={{ label: { whiteSpace: 'normal', textAlign: 'center' } }}
            data-testid="buy-now"
          >
            {t('bidding.buyNow.button', { price: formatMoney(state.buyNowPrice) })}
          </Button>
        )}
      </Stack>
    </Card>
  );
}

/** The lot's timer format, read before bidding: 'Contrapuja 10 s' and what a late bid does. */
function TimerFormatLine({ state }: { state: AuctionLiveState }) {
  const { t } = useTranslation();
  const format = timerFormatOf(state);
  const label = timerFormatLabel(format);
  const hint = timerFormatHint(format);
  return (
    <Group gap="xs" wrap="nowrap" align="flex-start" data-testid="timer-format" data-mode={format.mode}>
      <Badge variant="light" color="oro" tt="none" style={{ flexShrink: 0 }} data-testid="timer-format-label">
        {t(label.key, label.values)}
      </Badge>
      <Text size="xs" c="dimmed">
        {t(hint.key, hint.values)}
      </Text>
    </Group>
  );
}

function EndedNotice({ state, hasWon, auctionName }: { state: AuctionLiveState; hasWon: boolean; auctionName: string }) {
  const { t } = useTranslation();
  const price = formatMoney(state.currentPrice ?? 0);
  if (hasWon) {
    return (
      <Alert color="green" variant="filled" icon={<TrophyIcon />} title={t('bidding.ended.youWon')} data-testid="ended-notice" data-won="true">
        {t('bidding.ended.youWonMessage', { name: auctionName, price })} {/* The notice's own colour, so the link keeps its contrast. */}
        <a href={PURCHASES_PATH} style={{ color: 'inherit', fontWeight: 700, textDecoration: 'underline' }} data-testid="won-purchases-link">
          {t('purchases.nav.seeAll')}
        </a>
      </Alert>
    );
  }
  return (
    <Alert color="dark" variant="light" icon={<GavelIcon />} title={t('bidding.ended.title')} data-testid="ended-notice">
      {state.winnerName ? t('bidding.ended.winner', { name: state.winnerName, price }) : t('bidding.ended.noWinner')}
    </Alert>
  );
}
