import { Stack, Text, Title } from '@mantine/core';
import { type MouseEvent, useEffect, useId, useRef, useState } from 'react';
import { formatMoney } from '../../../domain/money.js';
import type { ReplayChapter } from '../../../domain/replays.js';
import type { PublicReplay } from '../../api/replay-viewing';
import { PhotoIcon } from '../../components/icons';
import { useTranslation } from '../../i18n';
import classes from './replay.module.css';
import { chapterFromSearch, followReplay, formatMoment, playChapter, searchWithLot } from './replay-chapters';

export interface ReplayPlayerProps {
  /** A ready replay: its video's address is set. */
  replay: PublicReplay & { url: string };
  title: string;
  /** The address's query, read once ('?lote=' opens the replay at that lot); the page's own by default. */
  search?: string;
}

const currentSearch = () => (typeof window === 'undefined' ? '' : window.location.search);

/**
 * The ended show's replay (loaded on demand, live-replay.tsx): the video, and a chapter per lot that
 * ran, each a link to its moment. The chapter playing now is marked, a tap jumps there and names the
 * lot in the address, and a link with '?lote=' opens the video at its lot.
 */
export function ReplayPlayer({ replay, title, search }: ReplayPlayerProps) {
  const { t } = useTranslation();
  const { chapters } = replay;
  const videoRef = useRef<HTMLVideoElement>(null);
  const [start] = useState(() => chapterFromSearch(chapters, search ?? currentSearch()));
  const [playing, setPlaying] = useState<ReplayChapter | null>(start);
  const headingId = useId();

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
      {chapters.length > 0 && (
        <Stack gap="xs" component="section" aria-labelledby={headingId} className={classes.chapters} data-testid="replay-chapters">
          <Stack gap={0}>
            <Title order={2} size="h4" id={headingId}>
              {t('live.replay.chaptersHeading')}
            </Title>
            <Text size="sm" c="dimmed">
              {t('live.replay.chaptersHint')}
            </Text>
          </Stack>
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
