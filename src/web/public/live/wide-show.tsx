import { Alert, Stack } from '@mantine/core';
import { ClockIcon } from '../../components/icons';
import { useTranslation } from '../../i18n';
import { ChatPanel } from '../chat/chat-slots';
import { CurrentLot } from './current-lot';
import classes from './live-page.module.css';
import { LiveVideo } from './live-video';
import { NotOfferedLots, ResultLots, UpcomingLots } from './lot-lists';
import { LotOverlay } from './lot-overlay';
import { ReplayPendingNotice } from './replay-notice';
import { ScheduledCountdown } from './scheduled-countdown';
import { EndedShowCard, WaitingLotCard } from './show-cards';
import { ShowHeader } from './show-header';
import { type ShowModel, type ShowVideo, videoPropsOf } from './show-model';
import { UnmuteBanner } from './unmute-banner';

/** Wider screens: the title and seller, the video beside the lot on the block with its bid panel and the chat, then what comes next and what sold. */
export function WideShow({ show, video }: { show: ShowModel; video: ShowVideo }) {
  const { t } = useTranslation();
  const { session, pageState, isStopped, current, offset } = show;

  return (
    <Stack gap="lg" data-testid="live-session" data-session-id={session.id} data-state={isStopped ? 'stopped' : pageState} data-layout="wide">
      {video.unmute && <UnmuteBanner {...video.unmute} />}
      <ShowHeader session={session} />

      {pageState === 'paused' && (
        <Alert color="orange" variant="light" icon={<ClockIcon />} title={t('live.paused')} role="status" data-testid="paused-notice">
          {t('live.pausedHint')}
        </Alert>
      )}

      <div className={classes.layout}>
        <div className={classes.stage}>
          <LiveVideo {...videoPropsOf(show, video)} overlay={current && <LotOverlay lot={current} offset={offset} />} />
        </div>
        <Stack gap="lg" miw={0}>
          {show.isBeforeShow && <ScheduledCountdown sessionId={session.id} scheduledAt={session.scheduledAt} offset={offset} isDue={show.isStartDue} />}
          {pageState === 'ended' && <EndedShowCard withBorder padding="lg" />}
          {show.pendingReplay && <ReplayPendingNotice replay={show.pendingReplay} />}
          {current ? (
            <CurrentLot key={current.id} sessionId={session.id} lot={current} companyId={show.companyId} offset={offset} />
          ) : (
            (pageState === 'live' || pageState === 'paused' || isStopped) && <WaitingLotCard withBorder padding="lg" />
          )}
          <ChatPanel sessionId={session.id} isEnded={pageState === 'ended'} />
          {pageState !== 'ended' && (
            <UpcomingLots lots={show.upcoming} heading={t(show.isBeforeShow ? 'live.upcoming.scheduledHeading' : 'live.upcoming.heading')} />
          )}
          {(show.results.length > 0 || pageState === 'ended') && <ResultLots lots={show.results} totals={show.totals} />}
          {show.notOffered.length > 0 && <NotOfferedLots lots={show.notOffered} />}
        </Stack>
      </div>
    </Stack>
  );
}
