import { Skeleton, Stack, Text } from '@mantine/core';
import { type KeyboardEvent, type MouseEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { formatMoney } from '../../../domain/money.js';
import type { ReplayChapter } from '../../../domain/replays.js';
import type { PublicReplay } from '../../api/replay-viewing';
import { PhotoIcon } from '../../components/icons';
import { LazyPart } from '../../components/lazy-part';
import { useTranslation } from '../../i18n';
import classes from './replay.module.css';
import { chapterFromSearch, followReplay, formatMoment, playChapter, searchWithLot } from './replay-chapters';
import type { ReplayChatProps } from './replay-chat';

// The chat's lines and their panel come only when the reader opens it.
const loadChat = () => import('./replay-chat').then((m) => m.ReplayChat);

type SideTab = 'lots' | 'chat';

export interface ReplayPlayerProps {
  sessionId: string;
  /** A ready replay: its video's address is set. */
  replay: PublicReplay & { url: string };
  title: string;
  /** The address's query, read once ('?lote=' opens the replay at that lot); the page's own by default. */
  search?: string;
}

const currentSearch = () => (typeof window === 'undefined' ? '' : window.location.search);

/**
 * The ended show's replay (loaded on demand, live-replay.tsx): the video, and beside it (under it on
 * a phone) two tabs: 'Lotes', a chapter per lot that ran, each a link to its moment, and 'Chat', the
 * show's chat at its moments (replay-chat.tsx), read only once opened. The chapter playing now is
 * marked, a tap jumps there and names the lot in the address, and a link with '?lote=' opens the
 * video at its lot. A replay without chapters has the chat alone, closed until tapped.
 */
export function ReplayPlayer({ sessionId, replay, title, search }: ReplayPlayerProps) {
  const { t } = useTranslation();
  const { chapters } = replay;
  const hasChapters = chapters.length > 0;
  const videoRef = useRef<HTMLVideoElement>(null);
  const [start] = useState(() => chapterFromSearch(chapters, search ?? currentSearch()));
  const [playing, setPlaying] = useState<ReplayChapter | null>(start);
  const [tab, setTab] = useState<SideTab | null>(hasChapters ? 'lots' : null);

  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    return followReplay(video, { chapters, start, onChapter: setPlaying });
  }, [chapters, start]);

  const onChapter = (event: MouseEvent<HTMLAnchorElement>, chapter: ReplayChapter) => {
    const video = videoRef.current;
    // A new tab or window keeps the link's own way: it opens the page at that lot.
    if (!video || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey || event.button !== 0) return;
    event.preventDefault();
    playChapter(video, chapter, window);
    setPlaying(chapter);
  };

  return (
    <div className={classes.replay} data-testid="replay">
      <div className={classes.stage}>
        {/* biome-ignore lint/a11y/useMediaCaption: a show's recording has no captions to offer. */}
        <video
          ref={videoRef}
          className={classes.video}
          src={replay.url}
          poster={replay.posterUrl ?? undefined}
          controls
          playsInline
          preload="metadata"
          aria-label={t('live.replay.videoLabel', { title })}
          data-testid="replay-video"
        />
      </div>
      <SideTabs
        tabs={hasChapters ? ['lots', 'chat'] : ['chat']}
        active={tab}
        // Without chapters the chat is a switch: a second tap closes it.
        onSelect={(next) => setTab(!hasChapters && next === tab ? null : next)}
      >
        {tab === 'lots' && (
          <Stack gap="xs" component="section" aria-label={t('live.replay.chaptersHeading')} data-testid="replay-chapters">
            <Text size="sm" c="dimmed">
              {t('live.replay.chaptersHint')}
            </Text>
            <ol className={classes.list}>
              {chapters.map((chapter) => (
                <li key={chapter.auctionId}>
                  <ChapterLink
                    chapter={chapter}
                    href={searchWithLot(search ?? currentSearch(), chapter.auctionId)}
                    isPlaying={playing?.auctionId === chapter.auctionId}
                    onClick={(event) => onChapter(event, chapter)}
                  />
                </li>
              ))}
            </ol>
          </Stack>
        )}
        {tab === 'chat' && (
          <LazyPart<ReplayChatProps>
            load={loadChat}
            props={{ sessionId, video: videoRef }}
            loading={<Skeleton className={classes.chatList} />}
            failedMessage={t('live.chat.loadFailed')}
          />
        )}
      </SideTabs>
    </div>
  );
}

/**
 * 'Lotes' and 'Chat' beside the video: a tab list (arrow keys move between them) over the open
 * one's panel. Drawn here rather than with Mantine's Tabs, whose stylesheet a buyer's first load
 * does not carry (src/web/main.tsx).
 */
function SideTabs({ tabs, active, onSelect, children }: { tabs: SideTab[]; active: SideTab | null; onSelect: (tab: SideTab) => void; children: ReactNode }) {
  const { t } = useTranslation();
  const baseId = useId();
  const tabId = (tab: SideTab) => `${baseId}-tab-${tab}`;
  const panelId = `${baseId}-panel`;
  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>, tab: SideTab) => {
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (step === 0 || tabs.length < 2) return;
    event.preventDefault();
    const next = tabs[(tabs.indexOf(tab) + step + tabs.length) % tabs.length] as SideTab;
    onSelect(next);
    document.getElementById(tabId(next))?.focus();
  };
  return (
    <div className={classes.side} data-open={active ?? undefined}>
      <div role="tablist" className={classes.tabList}>
        {tabs.map((tab, i) => (
          <button
            key={tab}
            type="button"
            role="tab"
            id={tabId(tab)}
            className={classes.tab}
            aria-selected={active === tab}
            aria-controls={active === tab ? panelId : undefined}
            tabIndex={active === tab || (active === null && i === 0) ? 0 : -1}
            onClick={() => onSelect(tab)}
            onKeyDown={(event) => onKeyDown(event, tab)}
            data-testid={`replay-tab-${tab}`}
          >
            {t(tab === 'lots' ? 'live.replay.tabs.lots' : 'live.replay.tabs.chat')}
          </button>
        ))}
      </div>
      {active && (
        <div role="tabpanel" id={panelId} aria-labelledby={tabId(active)} className={classes.panel}>
          {children}
        </div>
      )}
    </div>
  );
}

function ChapterLink({
  chapter,
  href,
  isPlaying,
  onClick,
}: {
  chapter: ReplayChapter;
  href: string;
  isPlaying: boolean;
  onClick: (event: MouseEvent<HTMLAnchorElement>) => void;
}) {
  const { t } = useTranslation();
  const isSold = chapter.result === 'sold';
  const result = isSold
    ? chapter.price !== null
      ? t('live.replay.soldFor', { price: formatMoney(chapter.price) })
      : t('live.results.sold')
    : t('live.replay.unsold');
  const moment = formatMoment(chapter.startMs);
  return (
    <a
      href={href}
      className={classes.chapter}
      aria-current={isPlaying ? 'true' : undefined}
      aria-label={t('live.replay.chapterLabel', { name: chapter.name, result, time: moment })}
      onClick={onClick}
      data-testid="replay-chapter"
      data-auction-id={chapter.auctionId}
    >
      {chapter.imageUrl ? (
        <img src={chapter.imageUrl} alt="" className={classes.thumb} loading="lazy" decoding="async" />
      ) : (
        <span className={classes.thumb} data-testid="chapter-no-photo">
          <PhotoIcon size={22} aria-hidden="true" />
        </span>
      )}
      <span className={classes.text}>
        <span className={classes.name}>{chapter.name}</span>
        <span className={classes.result} data-outcome={chapter.result} data-testid="chapter-result">
          {result}
        </span>
      </span>
      <span className={classes.moment} data-testid="chapter-moment">
        {moment}
      </span>
    </a>
  );
}
