import { useCallback, useState } from 'react';
import layer from '../../../components/video-layer.module.css';
import { useTranslation } from '../../../i18n';
import type { LiveNotice } from '../../bidding/use-live-notices';
import { ChatOverlay } from '../../chat/chat-slots';
import { LiveVideo } from '../live-video';
import { type ShowModel, type ShowVideo, videoPropsOf } from '../show-model';
import { UnmuteBanner } from '../unmute-banner';
import { PhoneIdle } from './phone-idle';
import { PhoneLot } from './phone-lot';
import { PhoneNotices, type ShownNotice } from './phone-notices';
import classes from './phone-show.module.css';
import { PhoneTopBar } from './phone-top-bar';
import { ShowLists } from './show-sheet';

/**
 * Below 600 px the page is the show: the video fills the screen and over it the top bar, the chat's
 * lines, the notices, the lot on the block and one button that bids the next minimum. Nothing
 * scrolls; the rest (another amount, the lots to come, the results) is one tap away in a sheet.
 */
export function PhoneShow({ show, video }: { show: ShowModel; video: ShowVideo }) {
  const { t } = useTranslation();
  const { session, pageState, isStopped, current } = show;
  const [notice, setNotice] = useState<ShownNotice | null>(null);
  const onNotice = useCallback((next: LiveNotice) => setNotice((prev) => ({ id: (prev?.id ?? 0) + 1, notice: next })), []);
  const dismissNotice = useCallback(() => setNotice(null), []);
  const [isSheetOpen, setSheetOpen] = useState(false);
  const sheet = { isOpen: isSheetOpen, setOpen: setSheetOpen, lists: <ShowLists show={show} /> };
  const isEnded = pageState === 'ended';

  return (
    <main className={classes.stage} data-testid="live-session" data-session-id={session.id} data-state={isStopped ? 'stopped' : pageState} data-layout="phone">
      <LiveVideo
        fill
        {...videoPropsOf(show, video)}
        controls={(sound) => (
          <div className={`${layer.layer} ${classes.layer}`}>
            <PhoneTopBar show={show} sound={sound} />
            {video.unmute && <UnmuteBanner {...video.unmute} className={classes.banner} />}
            {pageState === 'paused' && (
              <div className={classes.paused} role="status" data-testid="paused-notice">
                <strong>{t('live.paused')}</strong> {t('live.pausedHint')}
              </div>
            )}
            {isEnded && current && (
              // The show ended with its last lot still on its clock: the lot stays, and the end is said here.
              <div className={classes.paused} data-testid="ended-session">
                <h2 className={classes.bannerTitle}>{t('live.ended.title')}</h2>
              </div>
            )}
            {/* The notices sit above the chat's lines, never on them: a notice takes its room and the oldest lines give way. */}
            <div className={classes.middle}>
              <PhoneNotices notice={notice} onDone={dismissNotice} />
              <div className={classes.chat}>
                <ChatOverlay sessionId={session.id} isEnded={isEnded} />
              </div>
            </div>
            <div className={classes.bottom}>
              {current ? (
                <PhoneLot
                  key={current.id}
                  sessionId={session.id}
                  lot={current}
                  companyId={show.companyId}
                  offset={show.offset}
                  onNotice={onNotice}
                  sheet={sheet}
                />
              ) : (
                <PhoneIdle show={show} sheet={sheet} />
              )}
            </div>
          </div>
        )}
      />
    </main>
  );
}
