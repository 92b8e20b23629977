import { useCallback, useEffect, useState } from 'react';
import { livePath } from '../../../domain/live-public.js';
import type { LiveSessionData } from '../../api/live';
import { isReplayPending, usePublicReplay } from '../../api/replay-viewing';
import { useSocketEvent } from '../../api/socket';
import { RehearsalBanner } from '../../components/rehearsal-banner';
import { clockOffset } from '../../lib/countdown';
import { useHasPassed } from '../bidding/use-server-clock';
import { usePrebidNotices } from '../prebids/use-prebid-notices';
import { PublicLayout } from '../public-layout';
import { useDataSaver } from './data-saver';
import { isWatchable, ReplayShow } from './live-replay';
import { buyerLots, isShowStopped, livePageState, sessionTotals } from './live-view';
import { PhoneShow } from './phone/phone-show';
import type { ShowModel, ShowVideo } from './show-model';
import { useLiveVideo } from './use-live-video';
import { usePhoneShow } from './use-phone-show';
import { WideShow } from './wide-show';

interface LiveSessionViewProps {
  data: LiveSessionData;
  viewerCount: number | null;
}

/**
 * The loaded show: on a phone the screen is the show (phone/phone-show.tsx); wider, the two columns
 * (wide-show.tsx). Both read the same model, and the video and its sound survive a turn of the screen.
 */
export function LiveSessionView({ data, viewerCount }: LiveSessionViewProps) {
  const { session, lots } = data;
  const offset = clockOffset(data.serverNow, data.receivedAt);
  const isStartDue = useHasPassed(session.scheduledAt, offset);
  const pageState = livePageState(session.status, isStartDue);
  // 'Detener' sets a show that has begun back to scheduled: no start countdown then (live-view.ts).
  const isStopped = isShowStopped(session, lots, isStartDue);
  const canonical = livePath(session);
  const isPhone = usePhoneShow();
  usePrebidNotices();

  // Any slug (or none) opens the session: the id decides. The address bar shows the canonical link.
  useEffect(() => {
    if (window.location.pathname !== canonical) {
      window.history.replaceState(window.history.state, '', `${canonical}${window.location.search}${window.location.hash}`);
    }
  }, [canonical]);

  const [isUnmuteAsked, setUnmuteAsked] = useState(false);
  const [isMuted, setMuted] = useState(true);
  const [dataSaver, setDataSaver] = useDataSaver();
  const feed = useLiveVideo(session.id, session.broadcasting, dataSaver);
  // 'El vendedor detuvo la transmisión' once a broadcast this page saw ends (not before a first one).
  const [sawBroadcast, setSawBroadcast] = useState(session.broadcasting);
  useEffect(() => {
    if (session.broadcasting) setSawBroadcast(true);
  }, [session.broadcasting]);
  const onMutedChange = useCallback((muted: boolean) => setMuted(muted), []);
  useSocketEvent('promptUnmute', (event) => {
    if (event?.sessionId === session.id) setUnmuteAsked(true);
  });
  // An ended show's page becomes its replay once it is ready; asked only then.
  const replay = usePublicReplay(session.id, pageState === 'ended').data;

  const show: ShowModel = {
    session,
    offset,
    pageState,
    isStopped,
    isStartDue,
    isBeforeShow: !isStopped && (pageState === 'scheduled' || pageState === 'starting'),
    ...buyerLots(lots, session),
    totals: sessionTotals(lots),
    // Editors' answers carry the company (so they see 'your auction' instead of the form).
    companyId: 'companyId' in session ? session.companyId : null,
    viewerCount,
    pendingReplay: pageState === 'ended' && replay && isReplayPending(replay) ? replay : null,
  };
  const video: ShowVideo = {
    feed,
    muted: isMuted,
    onMutedChange,
    stopped: (isStopped || sawBroadcast) && !session.broadcasting && pageState !== 'ended',
    unmute:
      isUnmuteAsked && isMuted
        ? {
            onUnmute: () => {
              setMuted(false);
              setUnmuteAsked(false);
            },
            onDismiss: () => setUnmuteAsked(false),
          }
        : null,
    dataSaver,
    onDataSaverChange: setDataSaver,
  };

  if (pageState === 'ended' && isWatchable(replay)) return <ReplayShow show={show} replay={replay} />;
  if (isPhone) {
    return (
      <>
        <PhoneShow show={show} video={video} />
        {session.rehearsal && <RehearsalBanner where="phone" />}
      </>
    );
  }
  return (
    <PublicLayout size="lg">
      {session.rehearsal && <RehearsalBanner where="page" />}
      <WideShow show={show} video={video} />
    </PublicLayout>
  );
}
