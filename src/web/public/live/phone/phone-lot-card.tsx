import type { AuctionLiveState } from '../../../../domain/bidding.js';
import type { LotView } from '../../../../domain/live.js';
import { timerState } from '../../../../domain/live-public.js';
import { formatMoney } from '../../../../domain/money.js';
import { PhotoIcon } from '../../../components/icons';
import { useTranslation } from '../../../i18n';
import { timerFormatLabel, timerFormatOf } from '../../../lib/timer-format';
import { useServerNow } from '../../bidding/use-server-clock';
import { waitText } from '../../bidding/wait-text';
import { FINAL_SECONDS_MS, hasBidPrice, isSold, shownPrice } from '../live-view';
import { type Leader, leaderWording } from './one-tap';
import classes from './phone-lot.module.css';

interface PhoneLotCardProps {
  lot: LotView;
  /** The bid history's state (newer than the lot's own when a bid arrived first). */
  state: AuctionLiveState;
  offset: number;
  leader: Leader;
  headingId: string;
}

/** The lot on the block over the video: photo, name, price, who leads (masked), and a countdown read at a glance. */
export function PhoneLotCard({ lot, state, offset, leader, headingId }: PhoneLotCardProps) {
  const { t } = useTranslation();
  const photo = lot.auction.thumbnailUrl ?? lot.auction.images[0] ?? null;
  const hasBids = hasBidPrice(state);
  const isEnded = state.status === 'ended';
  const sold = isSold(state);
  const format = timerFormatLabel(timerFormatOf(state));
  const priceLabel = isEnded && hasBids ? t('bidding.price.final') : hasBids ? t('bidding.price.current') : t('publicAuction.startingPrice');
  const wording = leaderWording(leader, state);
  const leaderText =
    wording === 'noBids'
      ? t('bidding.price.noBids')
      : wording === 'noBidsEnded'
        ? t('bidding.price.noBidsEnded')
        : wording === 'you'
          ? t('live.phone.leaderYou')
          : wording === 'youWon'
            ? t('bidding.ended.youWon')
            : wording === 'other' && leader?.kind === 'other'
              ? t('live.phone.leader', { name: leader.name })
              : null;
  return (
    <section className={classes.lotCard} aria-labelledby={headingId} data-testid="current-lot" data-lot-id={lot.id} data-auction-id={lot.auctionId}>
      {photo ? (
        <img src={photo} alt="" className={classes.lotPhoto} />
      ) : (
        <span className={classes.lotPhoto} style={{ display: 'grid', placeItems: 'center' }} aria-hidden="true">
          <PhotoIcon size={22} />
        </span>
      )}
      <div style={{ minWidth: 0 }}>
        <p className={classes.lotLine}>
          {t('live.current.lotNumber', { order: lot.order })}
          {!isEnded && (
            <>
              {' · '}
              <span data-testid="timer-format-label">{t(format.key, format.values)}</span>
            </>
          )}
        </p>
        <h2 className={classes.lotName} id={headingId} data-testid="current-lot-name">
          {lot.auction.name}
        </h2>
        <p className={classes.price} data-testid="current-price">
          {formatMoney(shownPrice(state))}
        </p>
        <p className={classes.lotLine} data-testid="lot-leader">
          {[priceLabel, leaderText].filter(Boolean).join(' · ')}
        </p>
      </div>
      {isEnded ? (
        <span className={classes.clock} data-state="ended" data-testid="current-lot-outcome">
          {sold ? t('live.results.sold') : t('live.results.unsold')}
        </span>
      ) : (
        <LotClock state={state} offset={offset} />
      )}
    </section>
  );
}

/** Ticks every second, kept apart so only it re-renders. */
function LotClock({ state, offset }: { state: AuctionLiveState; offset: number }) {
  const { t } = useTranslation();
  const now = useServerNow(offset);
  const timer = timerState({ hasCurrentLot: true, auction: { endTime: state.endTime, status: state.status }, now });
  const isRunning = timer.kind === 'running';
  // On the block without a timer yet: nothing to count.
  if (!isRunning && state.endTime === null) return <span />;
  return (
    <span
      className={classes.clock}
      role="timer"
      aria-label={t('bidding.countdown.label')}
      data-testid="lot-countdown"
      data-final={isRunning && timer.remainingMs <= FINAL_SECONDS_MS ? true : undefined}
    >
      {isRunning ? waitText(t, timer.remainingMs, 'clock') : '00:00'}
    </span>
  );
}
