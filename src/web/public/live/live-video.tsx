import { Badge, Box, Center, Group, Text, VisuallyHidden } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { BroadcastIcon, EyeIcon } from '../../components/icons';
import classes from './live-page.module.css';
import type { LivePageState } from './live-view';

const STATE_COLORS: Record<LivePageState, string> = { scheduled: 'gray', starting: 'oro', live: 'red', paused: 'orange', ended: 'dark' };

interface LiveVideoProps {
  title: string;
  coverImageUrl: string | null;
  pageState: LivePageState;
  viewerCount: number | null;
  /** Shown over the bottom of the video (the lot on the block). */
  overlay?: ReactNode;
}

/**
 * The 9:16 player's place, with the show's state and the viewer count over it. Until the video
 * arrives the session's cover fills it.
 */
export function LiveVideo({ title, coverImageUrl, pageState, viewerCount, overlay }: LiveVideoProps) {
  const { t } = useTranslation();
  return (
    // VIDEO(issue 13): the viewer's player mounts inside [data-video-slot] (the cover stays as its poster).
    <Box component="section" aria-label={t('live.video.label')} className={classes.video} data-video-slot data-state={pageState}>
      {coverImageUrl ? (
        <img src={coverImageUrl} alt={t('live.video.cover', { title })} className={classes.cover} />
      ) : (
        <Center className={classes.videoPlaceholder}>
          <BroadcastIcon size={56} />
        </Center>
      )}
      <Group className={classes.overlayTop} justify="space-between" wrap="nowrap">
        <Badge color={STATE_COLORS[pageState]} variant="filled" size="lg" tt="none" data-testid="live-status">
          {t(`live.status.${pageState}`)}
        </Badge>
        {viewerCount !== null && (
          <Group
            gap={4}
            wrap="nowrap"
            className={classes.viewers}
            title={t('live.viewers', { count: viewerCount })}
            data-testid="viewer-count"
            data-count={viewerCount}
          >
            <EyeIcon size={16} />
            <Text size="sm" fw={600} span aria-hidden="true">
              {viewerCount}
            </Text>
            <VisuallyHidden>{t('live.viewers', { count: viewerCount })}</VisuallyHidden>
          </Group>
        )}
      </Group>
      {overlay}
    </Box>
  );
}
