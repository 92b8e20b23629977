import { Button, CloseButton, Stack, Title } from '@mantine/core';
import { useId, useState } from 'react';
import { BID_ERROR_CODES } from '../../../../domain/bid-rules.js';
import type { LotView } from '../../../../domain/live.js';
import { formatMoney } from '../../../../domain/money.js';
import { flattenHistory } from '../../../api/bid-cache';
import { GavelIcon } from '../../../components/icons';
import { useTranslation } from '../../../i18n';
import { BidPanel } from '../../bidding/bid-panel';
import { BiddingModals } from '../../bidding/bidding-modals';
import { UnpaidWarning } from '../../bidding/unpaid-warning';
import type { LiveNotice } from '../../bidding/use-live-notices';
import { useLotBidding } from '../use-lot-bidding';
import { BindingDialog } from './binding-dialog';
import { acceptBinding, browserStorage, hasAcceptedBinding, leaderOf, primaryAction } from './one-tap';
import classes from './phone-lot.module.css';
import { PhoneLotCard } from './phone-lot-card';
import { SheetButton, type SheetControl, ShowSheet } from './show-sheet';

interface PhoneLotProps {
  sessionId: string;
  lot: LotView;
  companyId: string | null;
  offset: number;
  onNotice: (notice: LiveNotice) => void;
  sheet: SheetControl;
}

/**
 * The lot on the block, on a phone: its card, and one button that bids exactly the next minimum it
 * shows. The first bid in a show asks once that bids are binding; after that a tap bids at once. A
 * price that moved meanwhile is the server's to refuse (409 with the new state): the button then
 * shows the new amount and waits for another tap, never bidding it by itself.
 */
export function PhoneLot({ sessionId, lot, companyId, offset, onNotice, sheet }: PhoneLotProps) {
  const { t } = useTranslation();
  const headingId = useId();
  const bidding = useLotBidding({ sessionId, lot, companyId, offset, onNotice });
  const { state, panel } = bidding;
  const me = panel.me;
  const action = primaryAction({ state, isOver: bidding.isOver, isOwnAuction: panel.isOwnAuction, myTag: bidding.myTag, isBlocked: bidding.isBlocked });
  const leader = leaderOf(state, flattenHistory(bidding.history.data), bidding.myTag);
  /** The amount a first tap showed, waiting for 'Entendido'. */
  const [bindingFor, setBindingFor] = useState<number | null>(null);

  const tap = (amount: number) => {
    if (me && !hasAcceptedBinding(browserStorage(), sessionId, me.user.id)) {
      setBindingFor(amount);
      return;
    }
    bidding.bidNow(amount);
  };
  const refusal = panel.refusal;
  const isRunning = action.kind === 'bid' || action.kind === 'leading';

  return (
    <>
      {refusal && (
        <div className={classes.refusal} role="alert" data-code={refusal.code} data-testid="bid-refusal">
          <p>
            {refusal.code === BID_ERROR_CODES.tooLow && action.kind === 'bid'
              ? t('live.phone.refusalTooLow', { amount: formatMoney(action.amount) })
              : refusal.message || t('common.genericError')}
          </p>
          <CloseButton variant="transparent" c="white" size="lg" aria-label={t('common.close')} onClick={panel.onDismissRefusal} />
        </div>
      )}
      {panel.offline && (
        <p className={classes.offline} role="status" data-testid="offline">
          {t(panel.offline === 'browser' ? 'bidding.offline.title' : 'bidding.live.offline')}
        </p>
      )}
      <PhoneLotCard lot={lot} state={state} offset={bidding.offset} leader={leader} headingId={headingId} />
      <div className={classes.actions}>
        {action.kind === 'bid' ? (
          <Button
            size="lg"
            classNames={{ root: classes.primary, label: classes.primaryLabel, section: classes.primaryIcon }}
            leftSection={<GavelIcon size={22} />}
            loading={panel.isSending}
            disabled={me === undefined || panel.offline === 'browser'}
            onClick={() => tap(action.amount)}
            data-testid="one-tap-bid"
            data-amount={action.amount}
          >
            {t('live.phone.bid', { amount: formatMoney(action.amount) })}
          </Button>
        ) : (
          <div className={classes.state} data-kind={action.kind === 'ended' && action.isWinner ? 'won' : action.kind} role="status" data-testid="bid-state">
            {action.kind === 'leading'
              ? t('bidding.leader.leading')
              : action.kind === 'closing'
                ? t('bidding.countdown.closing')
                : action.kind === 'ended'
                  ? action.isWinner
                    ? t('live.phone.won')
                    : t('live.phone.closed')
                  : action.kind === 'own'
                    ? t('bidding.ownAuction')
                    : action.kind === 'blocked'
                      ? t('unpaid.buyer.blockedTitle')
                      : t('bidding.pending.title')}
          </div>
        )}
        <SheetButton sheet={sheet} label={t('live.phone.more')} />
      </div>
      <ShowSheet sheet={sheet}>
        {isRunning && !panel.isOwnAuction && (
          <Stack gap="xs" className={classes.sheetSection}>
            <Title order={2} size="h4">
              {t('live.phone.customHeading')}
            </Title>
            <BidPanel {...panel} />
          </Stack>
        )}
        {/* Blocked: the sheet says why (a moderator's block, or unpaid bills) where the bid form was. */}
        {action.kind === 'blocked' && (
          <div className={classes.sheetSection}>
            <UnpaidWarning auctionId={lot.auctionId} signedIn={Boolean(me)} />
          </div>
        )}
      </ShowSheet>
      {bindingFor !== null && me && (
        <BindingDialog
          amount={bindingFor}
          onCancel={() => setBindingFor(null)}
          onConfirm={() => {
            acceptBinding(browserStorage(), sessionId, me.user.id);
            setBindingFor(null);
            bidding.bidNow(bindingFor);
          }}
        />
      )}
      <BiddingModals bidding={bidding} />
    </>
  );
}
