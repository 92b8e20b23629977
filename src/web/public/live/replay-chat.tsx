import { Button } from '@mantine/core';
import { type RefObject, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { isApiError } from '../../api/client';
import { useReplayChat } from '../../api/replay-viewing';
import { ChatLine } from '../../components/chat/chat-line';
import { Spinner } from '../../components/spinner';
import { useTranslation } from '../../i18n';
import classes from './replay.module.css';
import { formatMoment, type ReplayVideo } from './replay-chapters';
import { asChatMessage, followClock, linesAt, replayChatLines, wantsNextPage } from './replay-chat-lines';

/** Within this many pixels of the bottom counts as at it: the list follows new lines there. */
const EDGE_PX = 48;

export interface ReplayChatProps {
  sessionId: string;
  /** The replay's video: the lines follow its clock. */
  video: RefObject<ReplayVideo | null>;
}

/**
 * The show's chat beside its replay (loaded when the 'Chat' tab opens): the lines written up to the
 * video's moment, newest at the bottom, as they came while it plays. The list follows them unless
 * the reader scrolled up ('Ver mensajes nuevos' then); a seek rewinds or advances it. Its pages are
 * asked as the video needs them.
 */
export function ReplayChat({ sessionId, video }: ReplayChatProps) {
  const { t } = useTranslation();
  const query = useReplayChat(sessionId);
  const lines = useMemo(() => replayChatLines(query.data?.pages), [query.data]);
  const [nowMs, setNowMs] = useState(() => Math.floor((video.current?.currentTime ?? 0) * 1000));
  const listRef = useRef<HTMLDivElement>(null);
  const isAtBottom = useRef(true);
  const [hasUnseen, setUnseen] = useState(false);

  useEffect(() => {
    const element = video.current;
    if (!element) return;
    return followClock(element, (ms, isJump) => {
      // A seek is the reader choosing a moment: the list shows it from its newest line.
      if (isJump) {
        isAtBottom.current = true;
        setUnseen(false);
      }
      setNowMs(ms);
    });
  }, [video]);

  const { hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage } = query;
  const isWanted = query.isSuccess && !isFetchNextPageError && wantsNextPage({ lines, hasNext: hasNextPage, isFetching: isFetchingNextPage, nowMs });
  useEffect(() => {
    if (isWanted) void fetchNextPage();
  }, [isWanted, fetchNextPage]);

  const shown = linesAt(lines, nowMs);
  const lastId = shown.at(-1)?.id;
  // When the newest line shown changes (a line came, or a seek): follow it, or offer 'Ver mensajes nuevos'.
  useLayoutEffect(() => {
    const element = listRef.current;
    if (!element) return;
    if (isAtBottom.current) element.scrollTop = element.scrollHeight;
    else if (lastId !== undefined) setUnseen(true);
  }, [lastId]);

  const onScroll = () => {
    const element = listRef.current;
    if (!element) return;
    isAtBottom.current = element.scrollHeight - element.scrollTop - element.clientHeight < EDGE_PX;
    if (isAtBottom.current) setUnseen(false);
  };

  const toBottom = () => {
    const element = listRef.current;
    if (element) element.scrollTop = element.scrollHeight;
    isAtBottom.current = true;
    setUnseen(false);
  };

  if (query.isPending) {
    return (
      <div className={classes.chatState} data-testid="replay-chat" data-state="loading">
        <Spinner size="sm" label={t('common.loading')} />
      </div>
    );
  }
  if (query.isError && !query.data) {
    const isGone = isApiError(query.error) && query.error.status === 404;
    return (
      <div className={classes.chatState} data-testid="replay-chat" data-state={isGone ? 'unavailable' : 'failed'} role={isGone ? undefined : 'alert'}>
        {isGone ? t('live.replay.chat.unavailable') : t('live.chat.loadFailed')}
        {!isGone && (
          <Button size="compact-sm" variant="subtle" onClick={() => void query.refetch()}>
            {t('common.retry')}
          </Button>
        )}
      </div>
    );
  }
  if (lines.length === 0 && !hasNextPage) {
    return (
      <div className={classes.chatState} data-testid="replay-chat" data-state="empty">
        {t('live.replay.chat.empty')}
      </div>
    );
  }

  const isBehind = hasNextPage && (lines.at(-1)?.atMs ?? 0) < nowMs;
  return (
    <div className={classes.chat} data-testid="replay-chat" data-state="lines">
      <div
        ref={listRef}
        className={classes.chatList}
        onScroll={onScroll}
        role="log"
        aria-label={t('live.replay.chat.listLabel')}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (it holds no button)
        tabIndex={0}
        data-testid="replay-chat-list"
      >
        {shown.length === 0 && <p className={classes.chatNote}>{t('live.replay.chat.notYet')}</p>}
        {shown.map((line) => (
          <div key={line.id} className={classes.chatRow} data-testid="replay-chat-line" data-at-ms={line.atMs}>
            <span className={classes.chatMoment}>{formatMoment(line.atMs)}</span>
            <ChatLine line={asChatMessage(line, sessionId)} myTag={null} variant="panel" />
          </div>
        ))}
        {isFetchNextPageError ? (
          <p className={classes.chatNote} role="alert">
            {t('live.chat.loadFailed')}{' '}
            <Button size="compact-xs" variant="subtle" onClick={() => void fetchNextPage()}>
              {t('common.retry')}
            </Button>
          </p>
        ) : (
          isBehind && <Spinner size="xs" mx="auto" my="xs" label={t('live.replay.chat.loadingMore')} />
        )}
      </div>
      {hasUnseen && (
        <Button size="compact-xs" radius="xl" className={classes.chatUnseen} onClick={toBottom} data-testid="replay-chat-new-lines">
          {t('live.chat.newLines')}
        </Button>
      )}
    </div>
  );
}
