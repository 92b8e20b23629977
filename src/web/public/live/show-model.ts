import type { LiveSessionPublic } from '../../../domain/live.js';
import type { PublicReplay } from '../../api/replay-viewing';
import type { BuyerLots, LivePageState, SessionTotals } from './live-view';
import type { LiveVideoFeed } from './use-live-video';

/** What both layouts of the live page show, worked out once (live-session-view.tsx). */
export interface ShowModel extends BuyerLots {
  session: LiveSessionPublic;
  /** Server time minus device time. */
  offset: number;
  pageState: LivePageState;
  /** Begun, then stopped with 'Detener' (live-view.ts isShowStopped). */
  isStopped: boolean;
  isStartDue: boolean;
  /** Before the start: the countdown, and the lots to come. */
  isBeforeShow: boolean;
  totals: SessionTotals;
  /** The session's company, known to its editors only (they see 'your auction', not the form). */
  companyId: string | null;
  viewerCount: number | null;
  /** An ended show's replay while it is recorded or made: 'La repetición estará lista pronto'. */
  pendingReplay?: Pick<PublicReplay, 'status' | 'progress'> | null;
}

/** The seller's video and the viewer's sound, kept above both layouts. */
export interface ShowVideo {
  feed: LiveVideoFeed;
  muted: boolean;
  onMutedChange(muted: boolean): void;
  /** The seller stopped the broadcast while this page watched. */
  stopped: boolean;
  /** The seller asked for sound (promptUnmute) and the video is still muted. */
  unmute: { onUnmute: () => void; onDismiss: () => void } | null;
  /** 'Ahorro de datos': the sound only (data-saver.ts). */
  dataSaver: boolean;
  onDataSaverChange(on: boolean): void;
}

/** The video's part of both layouts: the show's state and title, and the feed with its sound and data saver. */
export function videoPropsOf(show: ShowModel, video: ShowVideo) {
  return {
    title: show.session.title,
    coverImageUrl: show.session.coverImageUrl,
    pageState: show.pageState,
    viewerCount: show.viewerCount,
    feed: video.feed,
    muted: video.muted,
    onMutedChange: video.onMutedChange,
    stopped: video.stopped,
    dataSaver: video.dataSaver,
    onDataSaverChange: video.onDataSaverChange,
  };
}
