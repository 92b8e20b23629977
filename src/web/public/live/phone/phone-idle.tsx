import { useTranslation } from '../../../i18n';
import { ReplayPendingNotice } from '../replay-notice';
import { ScheduledCountdown } from '../scheduled-countdown';
import { EndedShowCard, WaitingLotCard } from '../show-cards';
import type { ShowModel } from '../show-model';
import classes from './phone-lot.module.css';
import { SheetButton, type SheetControl, ShowSheet } from './show-sheet';

/** No lot on the block: the start countdown, the wait for the next lot, or the end; and the lists one tap away. */
export function PhoneIdle({ show, sheet }: { show: ShowModel; sheet: SheetControl }) {
  const { t } = useTranslation();
  const { pageState, session, offset } = show;
  const isEnded = pageState === 'ended';
  return (
    <>
      {show.isBeforeShow && <ScheduledCountdown sessionId={session.id} scheduledAt={session.scheduledAt} offset={offset} isDue={show.isStartDue} />}
      {isEnded && <EndedShowCard padding="md" />}
      {isEnded && show.pendingReplay && <ReplayPendingNotice replay={show.pendingReplay} />}
      {!show.isBeforeShow && !isEnded && <WaitingLotCard padding="md" />}
      <div className={classes.actions}>
        <SheetButton sheet={sheet} label={t(isEnded ? 'live.phone.results' : 'live.phone.lots')} wide />
      </div>
      <ShowSheet sheet={sheet} />
    </>
  );
}
